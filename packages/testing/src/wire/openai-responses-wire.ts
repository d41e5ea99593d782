import { openAiErrorBody, openAiRequestId } from './openai-errors.js';
import { jsonEvent, jsonTemplate, stopOf, usageOf, type WireCodec, type WireContext, type WireEvent } from './wire-codec.js';
import type { WireStreamReply } from './wire-reply.js';

/** Builds the event list, numbering events with `sequence_number` as the API does. */
class Emitter {
  readonly events: WireEvent[] = [];

  emit(type: string, fields: Record<string, unknown>): void {
    this.events.push(jsonEvent(type, { type, sequence_number: this.events.length, ...fields }));
  }

  /** Delta events of one type that differ only in `delta`, encoded through a template (they are the bulk of a stream). */
  deltas(type: string, fields: Record<string, unknown>, deltas: readonly string[], text = false): void {
    const encode = jsonTemplate(2, (sequence, delta) => ({ type, sequence_number: sequence, ...fields, delta }));
    for (const delta of deltas) this.events.push({ event: type, data: encode(this.events.length, delta), text });
  }
}

/**
 * The Responses API stream: named events with increasing `sequence_number`s: response.created and
 * response.in_progress; per output item output_item.added, its parts and deltas (reasoning summary text,
 * output_text, function_call_arguments) and output_item.done; then response.completed with the output and
 * usage, or response.incomplete (`max_output_tokens`) when the reply stops at max_tokens.
 */
function streamEvents(reply: WireStreamReply, context: WireContext): WireEvent[] {
  const out = new Emitter();
  const id = context.requestId.slice(4);
  const response = {
    id: `resp_${id}`, object: 'response', created_at: context.created, status: 'in_progress', error: null, incomplete_details: null,
    instructions: null, max_output_tokens: null, model: context.model, output: [] as unknown[], parallel_tool_calls: true,
    previous_response_id: null, reasoning: { effort: null, summary: null }, temperature: 1, text: { format: { type: 'text' } },
    tool_choice: 'auto', tools: [], top_p: 1, truncation: 'disabled', usage: null, metadata: {},
  };
  out.emit('response.created', { response });
  out.emit('response.in_progress', { response });
  const output: unknown[] = [];
  if (reply.thinking?.length) output.push(reasoningItem(out, output.length, `rs_${id}`, reply.thinking));
  if (reply.text?.length) output.push(messageItem(out, output.length, `msg_${id}`, reply.text));
  for (const call of reply.toolCalls ?? []) output.push(functionCallItem(out, output.length, call.id, call.name, call.argsFragments));
  const incomplete = stopOf(reply) === 'max_tokens';
  out.emit(incomplete ? 'response.incomplete' : 'response.completed', {
    response: { ...response, status: incomplete ? 'incomplete' : 'completed', incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null, output, usage: responsesUsage(reply) },
  });
  return out.events;
}

function reasoningItem(out: Emitter, output_index: number, item_id: string, deltas: readonly string[]): unknown {
  const text = deltas.join('');
  out.emit('response.output_item.added', { output_index, item: { id: item_id, type: 'reasoning', summary: [] } });
  const at = { item_id, output_index, summary_index: 0 };
  out.emit('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
  out.deltas('response.reasoning_summary_text.delta', at, deltas);
  out.emit('response.reasoning_summary_text.done', { ...at, text });
  out.emit('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text } });
  const item = { id: item_id, type: 'reasoning', summary: [{ type: 'summary_text', text }] };
  out.emit('response.output_item.done', { output_index, item });
  return item;
}

function messageItem(out: Emitter, output_index: number, item_id: string, deltas: readonly string[]): unknown {
  const at = { item_id, output_index, content_index: 0 };
  const part = { type: 'output_text', text: deltas.join(''), annotations: [], logprobs: [] };
  out.emit('response.output_item.added', { output_index, item: { id: item_id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
  out.emit('response.content_part.added', { ...at, part: { ...part, text: '' } });
  out.deltas('response.output_text.delta', { ...at, logprobs: [] }, deltas, true);
  out.emit('response.output_text.done', { ...at, text: part.text, logprobs: [] });
  out.emit('response.content_part.done', { ...at, part });
  const item = { id: item_id, type: 'message', status: 'completed', role: 'assistant', content: [part] };
  out.emit('response.output_item.done', { output_index, item });
  return item;
}

function functionCallItem(out: Emitter, output_index: number, call_id: string, name: string, fragments: readonly string[]): unknown {
  const item_id = `fc_${call_id}`;
  const args = fragments.join('');
  out.emit('response.output_item.added', { output_index, item: { id: item_id, type: 'function_call', status: 'in_progress', arguments: '', call_id, name } });
  out.deltas('response.function_call_arguments.delta', { item_id, output_index }, fragments);
  out.emit('response.function_call_arguments.done', { item_id, output_index, name, arguments: args });
  const item = { id: item_id, type: 'function_call', status: 'completed', arguments: args, call_id, name };
  out.emit('response.output_item.done', { output_index, item });
  return item;
}

/** Like chat, cached tokens are counted inside input_tokens. */
function responsesUsage(reply: WireStreamReply): unknown {
  const u = usageOf(reply);
  return {
    input_tokens: u.input + u.cache_read,
    input_tokens_details: { cached_tokens: u.cache_read },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.input + u.cache_read + u.output,
  };
}

/** OpenAI's Responses API. */
export const openAiResponsesWire: WireCodec = {
  path: '/v1/responses',
  basePath: '/v1',
  requestIdHeader: 'x-request-id',
  requestId: openAiRequestId,
  streamEvents,
  errorBody: (reply) => openAiErrorBody(reply, 'input'),
};
