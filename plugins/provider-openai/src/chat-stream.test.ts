import { isEnvelopeError, type ModelStreamEvent } from '@nodwyn/plugin-api';
import { type SseEvent } from '@nodwyn/plugin-api/transport';
import { describe, expect, it } from 'vitest';
import { chatStream } from './chat-stream.js';

const context = { provider: 'openai-compatible', operation: 'model.stream' };

async function* sse(...data: (object | string)[]): AsyncGenerator<SseEvent> {
  for (const d of data) yield { event: 'message', data: typeof d === 'string' ? d : JSON.stringify(d), lastEventId: '' };
}

const chunk = (delta: object, finish: string | null = null) => ({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
const usage = { choices: [], usage: { prompt_tokens: 9, completion_tokens: 2 } };

async function decode(events: AsyncIterable<SseEvent>): Promise<{ events: ModelStreamEvent[]; error?: unknown }> {
  const out: ModelStreamEvent[] = [];
  try {
    for await (const event of chatStream(events, context)) out.push(event);
    return { events: out };
  } catch (error) {
    return { events: out, error };
  }
}

describe('chatStream', () => {
  it('gives reasoning_content as one thinking block before the answer text', async () => {
    const { events } = await decode(sse(chunk({ reasoning_content: 'think ' }), chunk({ reasoning_content: 'more' }), chunk({ content: 'Hi' }), chunk({}, 'stop'), usage, '[DONE]'));
    expect(events).toEqual([
      { type: 'thinking', block: { text: 'think more' } },
      { type: 'text', text: 'Hi' },
      { type: 'usage', usage: { input: 9, output: 2 } },
      { type: 'stop', reason: 'end_turn' },
    ]);
  });

  it('reads Ollama-style tool calls sent whole without an index, and corrects a `stop` after calls to tool_use', async () => {
    const call = (id: string, path: string) => ({ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path }) } });
    const { events } = await decode(sse(chunk({ tool_calls: [call('call_x', 'a'), call('call_y', 'b')] }), chunk({}, 'stop'), '[DONE]'));
    expect(events.filter((e) => e.type === 'tool_call')).toEqual([
      { type: 'tool_call', call: { id: 'call_x', name: 'read_file', args: { path: 'a' } } },
      { type: 'tool_call', call: { id: 'call_y', name: 'read_file', args: { path: 'b' } } },
    ]);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'tool_use' });
  });

  it('emits each call at the finish_reason, before the usage chunk', async () => {
    const { events } = await decode(
      sse(chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'read_file', arguments: '' } }] }), chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"x"}' } }] }), chunk({}, 'tool_calls'), usage, '[DONE]'),
    );
    expect(events.map((e) => e.type)).toEqual(['tool_call_delta', 'tool_call_delta', 'tool_call', 'usage', 'stop']);
  });

  it.each([
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
  ])('normalises finish_reason %s to %s', async (finish, reason) => {
    const { events } = await decode(sse(chunk({ content: 'x' }), chunk({}, finish), '[DONE]'));
    expect(events.at(-1)).toEqual({ type: 'stop', reason });
  });

  it('shows a refusal as text and stops with refusal', async () => {
    const { events } = await decode(sse(chunk({ refusal: "I can't help with that." }), chunk({}, 'stop'), '[DONE]'));
    expect(events).toEqual([{ type: 'text', text: "I can't help with that." }, { type: 'stop', reason: 'refusal' }]);
  });

  it('takes a body that ends after the finish_reason and the usage as finished, without [DONE]', async () => {
    const { events, error } = await decode(sse(chunk({ content: 'ok' }), chunk({}, 'stop'), usage));
    expect(error).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'end_turn' });
  });

  it('fails a body that ends before [DONE] and the usage with STREAM_INCOMPLETE, after yielding what arrived', async () => {
    const { events, error } = await decode(sse(chunk({ content: 'par' }), chunk({}, 'stop')));
    expect(events).toEqual([{ type: 'text', text: 'par' }]);
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'STREAM_INCOMPLETE' });
  });

  it('turns an error chunk inside the stream into the envelope its code names', async () => {
    const { error } = await decode(sse({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }));
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({ category: 'RATE_LIMITED', plugin: 'openai-compatible' });
  });
});
