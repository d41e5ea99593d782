import { afterEach, describe, expect, it } from 'vitest';
import type { ModelMessage, ModelProvider, ModelRequest, ModelStreamEvent } from '@nodwyn/plugin-api';
import type { FrontendEvent } from '@nodwyn/protocol';
import { echo, memoryKernel, simpleLoop } from '../../test/helpers.js';
import type { Kernel } from '../kernel.js';

let kernel: Kernel;
afterEach(() => kernel?.close());

/** A priced provider that plays its turns in order and keeps each request. */
function priced(turns: ModelStreamEvent[][]): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'priced',
    model: 'm1',
    price: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
    requests,
    async *stream(request: ModelRequest) {
      requests.push(request);
      yield* turns[requests.length - 1] ?? [];
    },
  };
}

const call = (id: string): ModelStreamEvent => ({ type: 'tool_call', call: { id, name: 'echo', args: { text: id } } });
const usage = (input: number, output: number): ModelStreamEvent => ({ type: 'usage', usage: { input, output, cache_read: 1000, cache_write: 0 } });

describe('model calls on the floor', () => {
  it('logs each message with its cost from the provider price and its thinking blocks, and sends the thinking back', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const thinking = { text: 'I should echo.', signature: 'sig-1' };
    const provider = priced([
      [{ type: 'thinking', block: thinking }, call('a'), usage(1000, 100), { type: 'stop', reason: 'tool_use' }],
      [{ type: 'text', text: 'done' }, usage(2000, 10), { type: 'stop', reason: 'end_turn' }],
    ]);
    await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop });
    const messages = kernel.log.read(session).filter((e) => e.type === 'message.assistant');
    // 1000 × 3 + 100 × 15 + 1000 × 0.3 per million tokens.
    expect(messages[0]!.payload).toMatchObject({ model: 'm1', cost_usd: 0.0048, thinking: [thinking] });
    expect(messages[1]!.payload).toMatchObject({ cost_usd: 0.00645 });
    const assistant = provider.requests[1]!.messages.find((m): m is Extract<ModelMessage, { role: 'assistant' }> => m.role === 'assistant');
    expect(assistant?.thinking).toEqual([thinking]);
  });

  // A provider that hands over parsed arguments too deep for the log: logging the message used to throw,
  // and the text that had streamed was lost with it.
  it('ends the turn with TOOL_ARGS_TOO_DEEP when a provider hands over arguments too deep to log, keeping the text', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    let deep: unknown = 1;
    for (let i = 0; i < 2000; i++) deep = { x: deep };
    const provider = priced([[{ type: 'text', text: 'about to call' }, { type: 'tool_call', call: { id: 'a', name: 'echo', args: { deep } } }]]);
    const result = await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop });
    expect(result).toMatchObject({ reason: 'failed', envelope: { category: 'LIMIT_EXCEEDED', code: 'TOOL_ARGS_TOO_DEEP', plugin: 'priced' } });
    const assistant = kernel.log.read(session).find((e) => e.type === 'message.assistant');
    expect(assistant?.payload).toMatchObject({ text: 'about to call', tool_calls: [] });
    expect(kernel.log.verify(session).ok).toBe(true);
  });

  it('shows streamed deltas only after the log stages, a secret split across deltas included', async () => {
    kernel = memoryKernel();
    kernel.stages.add('l1', { name: 'mask', slot: 'log', filter: (d) => ({ ...d, payload: JSON.parse(JSON.stringify(d.payload).replaceAll('TOPSECRET', '[R]')) }) });
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const events: FrontendEvent[] = [];
    const provider = priced([[{ type: 'text', text: 'key TOP' }, { type: 'text', text: 'SECRET ok\nmore' }, { type: 'stop', reason: 'end_turn' }]]);
    const result = await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop, onEvent: (e) => events.push(e) });
    const shown = events.flatMap((e) => (e.type === 'delta.text' ? [e.text] : []));
    expect(shown).toEqual(['key ', '[R] ok\n', 'more']);
    expect(result.answer).toBe('key [R] ok\nmore');
  });

  it('fails the call closed, showing nothing, when a log stage throws on held text', async () => {
    kernel = memoryKernel();
    kernel.stages.add('l1', { name: 'fragile', slot: 'log', filter: (d) => { if (d.type === 'display.text') throw new Error('stage bug'); return d; } });
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const events: FrontendEvent[] = [];
    const provider = priced([[{ type: 'text', text: 'no newline here' }, { type: 'stop', reason: 'end_turn' }]]);
    const result = await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop, onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ reason: 'failed', envelope: { code: 'LOG_FILTER_FAILED', plugin: 'l1' } });
    expect(events.filter((e) => e.type === 'delta.text')).toEqual([]);
  });

  it('ends the turn with TOOL_ARGS_TOO_LARGE past the run\'s maxToolArgsBytes budget, keeping the text', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const provider = priced([[{ type: 'text', text: 'big one' }, { type: 'tool_call', call: { id: 'a', name: 'echo', args: { text: 'x'.repeat(500) } } }]]);
    const result = await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop, budgets: { maxToolArgsBytes: 200 } });
    expect(result).toMatchObject({ reason: 'failed', envelope: { code: 'TOOL_ARGS_TOO_LARGE', expected: 'at most 200 bytes' } });
    expect(kernel.log.read(session).find((e) => e.type === 'message.assistant')?.payload).toMatchObject({ text: 'big one', tool_calls: [] });
  });

  it('stops the run when the cost budget is spent', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const provider = priced([[call('a'), usage(1_000_000, 0), { type: 'stop', reason: 'tool_use' }], [{ type: 'text', text: 'never' }]]);
    const result = await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop, budgets: { maxCostUsd: 2 } });
    expect([result.reason, result.envelope?.code]).toEqual(['budget', 'BUDGET_COST']);
  });

  it('gives every model call of a run the same retry budget and a guarded fetch', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', echo);
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const provider = priced([[call('a'), { type: 'stop', reason: 'tool_use' }], [{ type: 'text', text: 'ok' }, { type: 'stop', reason: 'end_turn' }]]);
    const spend: ModelProvider = {
      ...provider,
      async *stream(request, signal) {
        request.retries.take();
        yield* provider.stream(request, signal);
      },
    };
    await kernel.run({ session, prompt: 'go', provider: spend, strategy: simpleLoop, budgets: { maxRetries: 5 } });
    const [first, second] = provider.requests;
    expect(first!.retries).toBe(second!.retries);
    expect(second!.retries.remaining).toBe(3);
    expect(typeof first!.fetch).toBe('function');
  });

  it('shows retries to front ends without logging them', async () => {
    kernel = memoryKernel();
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const provider = priced([[{ type: 'retry', attempt: 2, delayMs: 120.4, reason: 'rate limited (HTTP 429)' }, { type: 'text', text: 'ok' }, { type: 'stop', reason: 'end_turn' }]]);
    const seen: FrontendEvent[] = [];
    await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop, onEvent: (e) => seen.push(e) });
    expect(seen).toContainEqual({ type: 'model.retry', session, attempt: 2, delay_ms: 120, reason: 'rate limited (HTTP 429)' });
    expect(kernel.log.read(session).some((e) => JSON.stringify(e.payload).includes('rate limited'))).toBe(false);
  });

  it('shows each reasoning block to the front end through the text layers as it arrives, but never an encrypted one', async () => {
    kernel = memoryKernel();
    kernel.stages.add('l1', { name: 'mask', slot: 'log', filter: (d) => ({ ...d, payload: JSON.parse(JSON.stringify(d.payload).replaceAll('hunter2', '[REDACTED]')) }) });
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const provider = priced([
      [
        { type: 'thinking', block: { text: 'the password is hunter2', signature: 's' } },
        { type: 'thinking', block: { text: 'opaque-bytes', redacted: true } },
        { type: 'text', text: 'done\n' },
        { type: 'stop', reason: 'end_turn' },
      ],
    ]);
    const events: FrontendEvent[] = [];
    await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop, onEvent: (e) => events.push(e) });
    const shown = events.filter((e) => e.type === 'delta.thought' || e.type === 'delta.text');
    expect(shown).toEqual([
      { type: 'delta.thought', session, text: 'the password is [REDACTED]' },
      { type: 'delta.text', session, text: 'done\n' },
    ]);
  });
});
