import { openAiErrorBody, openAiRequestId } from './openai-errors.js';
import { jsonEvent, jsonTemplate, stopOf, usageOf, type WireCodec, type WireContext, type WireEvent } from './wire-codec.js';
import type { WireStreamReply } from './wire-reply.js';

const FINISH = { end_turn: 'stop', tool_use: 'tool_calls', max_tokens: 'length' } as const;

/**
 * The Chat Completions stream: `chat.completion.chunk` objects on bare `data:` lines: a role chunk, content
 * (and `reasoning_content`, as OpenAI-compatible servers send reasoning) deltas, each tool call opened with
 * its index, id and name and then fed argument fragments by index, a chunk with the finish_reason, with
 * `stream_options.include_usage` a last chunk with empty choices and the usage, then `data: [DONE]`.
 */
function streamEvents(reply: WireStreamReply, context: WireContext): WireEvent[] {
  const includeUsage = wantsUsage(context.body);
  const base = { id: `chatcmpl-${context.requestId.slice(4, 28)}`, object: 'chat.completion.chunk', created: context.created, model: context.model, service_tier: 'default', system_fingerprint: 'fp_wire' };
  const chunkOf = (delta: Record<string, unknown>, finish: string | null = null): unknown => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}) });
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): WireEvent => jsonEvent(undefined, chunkOf(delta, finish));
  const content = jsonTemplate(1, (text) => chunkOf({ content: text }));
  const events: WireEvent[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const reasoning_content of reply.thinking ?? []) events.push(chunk({ reasoning_content }));
  for (const text of reply.text ?? []) events.push({ data: content(text), text: true });
  (reply.toolCalls ?? []).forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const args of call.argsFragments) events.push(chunk({ tool_calls: [{ index, function: { arguments: args } }] }));
  });
  events.push(chunk({}, FINISH[stopOf(reply)]));
  if (includeUsage) events.push(jsonEvent(undefined, { ...base, choices: [], usage: chatUsage(reply) }));
  events.push({ data: '[DONE]' });
  return events;
}

function wantsUsage(body: unknown): boolean {
  const options = typeof body === 'object' && body !== null ? (body as { stream_options?: { include_usage?: unknown } }).stream_options : undefined;
  return options?.include_usage === true;
}

/** OpenAI counts cached tokens inside prompt_tokens; it has no cache-write count. */
function chatUsage(reply: WireStreamReply): unknown {
  const u = usageOf(reply);
  return {
    prompt_tokens: u.input + u.cache_read,
    completion_tokens: u.output,
    total_tokens: u.input + u.cache_read + u.output,
    prompt_tokens_details: { cached_tokens: u.cache_read, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** OpenAI's Chat Completions API (and the OpenAI-compatible servers that copy it). */
export const openAiChatWire: WireCodec = {
  path: '/v1/chat/completions',
  basePath: '/v1',
  requestIdHeader: 'x-request-id',
  requestId: openAiRequestId,
  streamEvents,
  errorBody: (reply) => openAiErrorBody(reply, 'messages'),
};
