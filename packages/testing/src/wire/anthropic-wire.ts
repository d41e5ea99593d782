import { jsonEvent, jsonTemplate, stopOf, usageOf, type WireCodec, type WireContext, type WireEvent } from './wire-codec.js';
import type { WireErrorReply, WireStreamReply } from './wire-reply.js';

/** Anthropic's error `type` and message for a status (https://docs.anthropic.com/en/api/errors). */
const ERRORS: Readonly<Record<number, readonly [string, string]>> = {
  400: ['invalid_request_error', 'There was an issue with the format or content of your request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'There is an issue with your billing or payment information.'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'The requested resource could not be found.'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.'],
  500: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timed out'],
  529: ['overloaded_error', 'Overloaded'],
};

/**
 * The Messages API stream: message_start, then per content block content_block_start, deltas and
 * content_block_stop (with a ping after the first block starts, as the API does), then message_delta with
 * the stop reason and cumulative usage, then message_stop.
 */
function streamEvents(reply: WireStreamReply, context: WireContext): WireEvent[] {
  const usage = usageOf(reply);
  const tokens = { input_tokens: usage.input, cache_creation_input_tokens: usage.cache_write, cache_read_input_tokens: usage.cache_read };
  const message = { id: `msg_${context.requestId.slice(4)}`, type: 'message', role: 'assistant', model: context.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...tokens, output_tokens: 1, service_tier: 'standard' } };
  const events: WireEvent[] = [jsonEvent('message_start', { type: 'message_start', message })];
  const blocks = contentBlocks(reply, context);
  blocks.forEach((block, index) => {
    events.push(jsonEvent('content_block_start', { type: 'content_block_start', index, content_block: block.start }));
    if (index === 0) events.push(ping());
    const delta = jsonTemplate(1, (value) => ({ type: 'content_block_delta', index, delta: { type: block.delta, [block.field]: value } }));
    const text = block.delta === 'text_delta';
    for (const value of block.values) events.push({ event: 'content_block_delta', data: delta(value), text });
    if (block.signature !== undefined) events.push(jsonEvent('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }));
    events.push(jsonEvent('content_block_stop', { type: 'content_block_stop', index }));
  });
  if (blocks.length === 0) events.push(ping());
  events.push(jsonEvent('message_delta', { type: 'message_delta', delta: { stop_reason: stopOf(reply), stop_sequence: null }, usage: { ...tokens, output_tokens: usage.output } }));
  events.push(jsonEvent('message_stop', { type: 'message_stop' }));
  return events;
}

/** A content block: how it starts, and the deltas that fill it (one delta type, one field, many values). */
interface Block {
  readonly start: Record<string, unknown>;
  readonly delta: 'thinking_delta' | 'text_delta' | 'input_json_delta';
  readonly field: 'thinking' | 'text' | 'partial_json';
  readonly values: readonly string[];
  /** A thinking block ends with a signature_delta. */
  readonly signature?: string;
}

function contentBlocks(reply: WireStreamReply, context: WireContext): Block[] {
  const blocks: Block[] = [];
  if (reply.thinking?.length) {
    const signature = Buffer.from(`wire-signature:${context.requestId}`).toString('base64');
    blocks.push({ start: { type: 'thinking', thinking: '', signature: '' }, delta: 'thinking_delta', field: 'thinking', values: reply.thinking, signature });
  }
  if (reply.text?.length) blocks.push({ start: { type: 'text', text: '' }, delta: 'text_delta', field: 'text', values: reply.text });
  for (const call of reply.toolCalls ?? []) {
    blocks.push({ start: { type: 'tool_use', id: call.id, name: call.name, input: {} }, delta: 'input_json_delta', field: 'partial_json', values: call.argsFragments });
  }
  return blocks;
}

function ping(): WireEvent {
  return jsonEvent('ping', { type: 'ping' });
}

/** `{"type":"error","error":{"type","message"},"request_id"}`, the body of every Anthropic error answer. */
function errorBody(reply: WireErrorReply, context: WireContext): unknown {
  const [type, message] = ERRORS[reply.status] ?? (reply.status >= 500 ? ERRORS[500]! : ERRORS[400]!);
  return { type: 'error', error: { type: reply.errorType ?? type, message: reply.message ?? message }, request_id: context.requestId };
}

/** Anthropic's Messages API as its servers speak it. */
export const anthropicWire: WireCodec = {
  path: '/v1/messages',
  basePath: '',
  requestIdHeader: 'request-id',
  requestId: (n) => `req_011Wire${String(n).padStart(16, '0')}`,
  streamEvents,
  errorBody,
};
