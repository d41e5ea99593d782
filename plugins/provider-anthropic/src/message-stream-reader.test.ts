import { isEnvelopeError, type Envelope, type ModelStreamEvent } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { MessageStreamReader } from './message-stream-reader.js';

const START = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 12, output_tokens: 1, cache_read_input_tokens: 7, cache_creation_input_tokens: 3 } } };
const STOP = { type: 'message_stop' };

function delta(stopReason: string | null, usage: Record<string, number> = { output_tokens: 9 }) {
  return { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage };
}

function read(events: readonly unknown[], headers?: Headers): ModelStreamEvent[] {
  const reader = new MessageStreamReader(headers);
  return events.flatMap((event) => reader.push(event));
}

function thrown(run: () => unknown): Envelope {
  try {
    run();
  } catch (error) {
    if (isEnvelopeError(error)) return error.envelope;
    throw error;
  }
  throw new Error('expected an envelope error');
}

describe('MessageStreamReader', () => {
  it.each([
    ['end_turn', 'end_turn'],
    ['tool_use', 'tool_use'],
    ['max_tokens', 'max_tokens'],
    ['stop_sequence', 'end_turn'],
    ['refusal', 'refusal'],
    ['pause_turn', 'pause_turn'],
    ['model_context_window_exceeded', 'model_context_window_exceeded'],
  ])('normalises stop_reason %s to %s, with usage right before the one stop', (wire, reason) => {
    const events = read([START, { type: 'ping' }, delta(wire), STOP]);
    expect(events).toEqual([
      { type: 'usage', usage: { input: 12, output: 9, cache_read: 7, cache_write: 3 } },
      { type: 'stop', reason },
    ]);
  });

  it("lets message_delta's cumulative usage win over message_start's, field by field", () => {
    const events = read([START, delta('end_turn', { input_tokens: 20, output_tokens: 40, cache_read_input_tokens: 8 }), STOP]);
    expect(events[0]).toEqual({ type: 'usage', usage: { input: 20, output: 40, cache_read: 8, cache_write: 3 } });
  });

  it('assembles a thinking block from thinking and signature deltas and yields it whole when the block stops', () => {
    const events = read([
      START,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'think.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Answer.' } },
      { type: 'content_block_stop', index: 2 },
      delta('end_turn'),
      STOP,
    ]);
    expect(events.slice(0, 3)).toEqual([
      { type: 'thinking', block: { text: 'Let me think.', signature: 'EqQBCgIYAhIM' } },
      { type: 'thinking', block: { text: 'EmwKAhgBEgy3', redacted: true } },
      { type: 'text', text: 'Answer.' },
    ]);
  });

  it('streams argument fragments of interleaved tool calls by block index, then each call; invalid JSON stays raw text', () => {
    const events = read([
      START,
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: {} } },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_b', name: 'list_dir', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"path": "b' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"path": "a"}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_c', name: 'now', input: {} } },
      { type: 'content_block_stop', index: 2 },
      delta(null),
      STOP,
    ]);
    expect(events).toEqual([
      { type: 'tool_call_delta', callId: 'toolu_a', name: 'read_file', argsFragment: '' },
      { type: 'tool_call_delta', callId: 'toolu_b', name: 'list_dir', argsFragment: '' },
      { type: 'tool_call_delta', callId: 'toolu_b', argsFragment: '{"path": "b' },
      { type: 'tool_call_delta', callId: 'toolu_a', argsFragment: '{"path": "a"}' },
      { type: 'tool_call', call: { id: 'toolu_a', name: 'read_file', args: { path: 'a' } } },
      { type: 'tool_call', call: { id: 'toolu_b', name: 'list_dir', args: '{"path": "b' } },
      { type: 'tool_call_delta', callId: 'toolu_c', name: 'now', argsFragment: '' },
      { type: 'tool_call', call: { id: 'toolu_c', name: 'now', args: {} } },
      { type: 'usage', usage: { input: 12, output: 9, cache_read: 7, cache_write: 3 } },
      { type: 'stop', reason: 'tool_use' },
    ]);
  });

  it('throws an error event as the envelope of its error type, with the response request id', () => {
    const reader = new MessageStreamReader(new Headers({ 'request-id': 'req_mid' }));
    reader.push(START);
    const envelope = thrown(() => reader.push({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    expect([envelope.category, envelope.code, envelope.retryable, envelope.request_id]).toEqual(['UPSTREAM_UNAVAILABLE', 'OVERLOADED', 'after_delay', 'req_mid']);
    expect(reader.finished).toBe(false);
  });

  it('refuses a delta for a block that never started, or of the wrong kind, with STREAM_OUT_OF_ORDER', () => {
    const stray = thrown(() => read([START, { type: 'content_block_delta', index: 4, delta: { type: 'text_delta', text: 'x' } }]));
    expect([stray.category, stray.code]).toEqual(['UNEXPECTED_RESPONSE', 'STREAM_OUT_OF_ORDER']);
    const mismatched = thrown(() =>
      read([START, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{' } }]),
    );
    expect(mismatched.code).toBe('STREAM_OUT_OF_ORDER');
  });

  it('ignores pings and event types it does not know', () => {
    expect(read([START, { type: 'ping' }, { type: 'some_future_event', x: 1 }])).toEqual([]);
  });
});
