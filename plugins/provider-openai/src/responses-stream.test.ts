import { isEnvelopeError, type ModelStreamEvent } from '@nodwyn/plugin-api';
import { type SseEvent } from '@nodwyn/plugin-api/transport';
import { describe, expect, it } from 'vitest';
import { responsesStream } from './responses-stream.js';

const context = { provider: 'openai', operation: 'model.stream' };

async function* sse(...events: Record<string, unknown>[]): AsyncGenerator<SseEvent> {
  for (const data of events) yield { event: String(data.type), data: JSON.stringify(data), lastEventId: '' };
}

const completed = (usage: object | null = { input_tokens: 40, input_tokens_details: { cached_tokens: 10 }, output_tokens: 5 }) => ({ type: 'response.completed', response: { status: 'completed', usage } });

async function decode(events: AsyncIterable<SseEvent>): Promise<{ events: ModelStreamEvent[]; error?: unknown }> {
  const out: ModelStreamEvent[] = [];
  try {
    for await (const event of responsesStream(events, context)) out.push(event);
    return { events: out };
  } catch (error) {
    return { events: out, error };
  }
}

describe('responsesStream', () => {
  it('keys argument deltas by item id, takes the done arguments, and reports usage and tool_use', async () => {
    const { events } = await decode(
      sse(
        { type: 'response.output_item.added', output_index: 0, item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '' } },
        { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '{"path":' },
        { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '"a"}' },
        { type: 'response.output_item.done', output_index: 0, item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a"}' } },
        completed(),
      ),
    );
    expect(events).toEqual([
      { type: 'tool_call_delta', callId: 'call_1', name: 'read_file', argsFragment: '' },
      { type: 'tool_call_delta', callId: 'call_1', argsFragment: '{"path":' },
      { type: 'tool_call_delta', callId: 'call_1', argsFragment: '"a"}' },
      { type: 'tool_call', call: { id: 'call_1', name: 'read_file', args: { path: 'a' } } },
      { type: 'usage', usage: { input: 30, output: 5, cache_read: 10 } },
      { type: 'stop', reason: 'tool_use' },
    ]);
  });

  it('finds the call by output_index when a delta has no item id', async () => {
    const { events } = await decode(
      sse(
        { type: 'response.output_item.added', output_index: 3, item: { id: 'fc_9', type: 'function_call', call_id: 'call_9', name: 'list', arguments: '' } },
        { type: 'response.function_call_arguments.delta', output_index: 3, delta: '{}' },
        completed(null),
      ),
    );
    expect(events.filter((e) => e.type === 'tool_call_delta').map((e) => e.type === 'tool_call_delta' && e.callId)).toEqual(['call_9', 'call_9']);
    expect(events.filter((e) => e.type === 'tool_call')).toEqual([{ type: 'tool_call', call: { id: 'call_9', name: 'list', args: {} } }]);
  });

  it('gives a reasoning summary as a thinking block, and text deltas as text', async () => {
    const { events } = await decode(
      sse(
        { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } },
        { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'Plan: ' },
        { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'answer.' },
        { type: 'response.output_item.done', output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Plan: answer.' }] } },
        { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'Hi' },
        completed(),
      ),
    );
    expect(events.slice(0, 2)).toEqual([{ type: 'thinking', block: { text: 'Plan: answer.' } }, { type: 'text', text: 'Hi' }]);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'end_turn' });
  });

  it('stops with max_tokens on response.incomplete for max_output_tokens', async () => {
    const { events } = await decode(
      sse({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, delta: 'cut' }, { type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: null } }),
    );
    expect(events).toEqual([{ type: 'text', text: 'cut' }, { type: 'stop', reason: 'max_tokens' }]);
  });

  it('turns response.failed into the envelope its error code names', async () => {
    const { error } = await decode(sse({ type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: 'The server had an error' } } }));
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({ category: 'UPSTREAM_UNAVAILABLE', plugin: 'openai' });
  });

  it('turns an error event into the envelope its code names', async () => {
    const { error } = await decode(sse({ type: 'error', code: 'rate_limit_exceeded', message: 'slow down', param: null }));
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({ category: 'RATE_LIMITED' });
  });

  it('fails a body that ends before response.completed with STREAM_INCOMPLETE', async () => {
    const { events, error } = await decode(sse({ type: 'response.output_text.delta', item_id: 'm', output_index: 0, delta: 'par' }));
    expect(events).toEqual([{ type: 'text', text: 'par' }]);
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'STREAM_INCOMPLETE' });
  });
});
