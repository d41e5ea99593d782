import type { ModelStreamEvent, ThinkingBlock, ToolCall } from '@nodwyn/plugin-api';
import { startWireServer, type WireServer } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicFactory, drain, request } from './plugin-context.js';

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function collect(events: readonly ModelStreamEvent[]): { thinking: ThinkingBlock[]; toolCalls: ToolCall[]; text: string } {
  return {
    thinking: events.flatMap((e) => (e.type === 'thinking' ? [e.block] : [])),
    toolCalls: events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : [])),
    text: events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join(''),
  };
}

describe('extended thinking with tool use', () => {
  it('asks for thinking with the budget, yields the signed block, and sends it back before the tool use of the next request', async () => {
    server = await startWireServer('anthropic', [
      { kind: 'stream', thinking: ['The user wants ', 'a.txt.'], text: ['Reading.'], toolCalls: [{ id: 'toolu_01T', name: 'read_file', argsFragments: ['{"path":', '"a.txt"}'] }] },
      { kind: 'stream', text: ['It says alpha.'] },
    ]);
    const provider = await (await anthropicFactory()).create({ base_url: server.url, model: 'claude-haiku-4-5', thinking_budget: '2048' });
    const first = await drain(provider.stream(request([{ role: 'user', text: 'read a.txt' }]), new AbortController().signal));
    expect(first.error).toBeUndefined();
    const turn = collect(first.events);
    expect(turn.thinking).toEqual([{ text: 'The user wants a.txt.', signature: expect.stringMatching(/.+/) }]);
    expect(first.events.at(-1)).toEqual({ type: 'stop', reason: 'tool_use' });

    const second = await drain(
      provider.stream(
        request([
          { role: 'user', text: 'read a.txt' },
          { role: 'assistant', text: turn.text, toolCalls: turn.toolCalls, thinking: turn.thinking },
          { role: 'tool', callId: 'toolu_01T', name: 'read_file', text: 'alpha', isError: false },
        ]),
        new AbortController().signal,
      ),
    );
    expect(second.error).toBeUndefined();
    expect(server.requests[0]!.body).toMatchObject({ max_tokens: 8192, thinking: { type: 'enabled', budget_tokens: 2048 }, stream: true });
    expect((server.requests[1]!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'read a.txt' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'The user wants a.txt.', signature: turn.thinking[0]!.signature },
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_01T', name: 'read_file', input: { path: 'a.txt' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01T', is_error: false, content: 'alpha' }] },
    ]);
  });

  it('sends no thinking parameter, and the default max_tokens, without thinking_budget', async () => {
    server = await startWireServer('anthropic', [{ kind: 'stream', text: ['ok'] }]);
    const provider = await (await anthropicFactory()).create({ base_url: server.url, model: 'claude-haiku-4-5' });
    await drain(provider.stream(request([{ role: 'user', text: 'hi' }]), new AbortController().signal));
    const body = server.requests[0]!.body as Record<string, unknown>;
    expect(body.thinking).toBeUndefined();
    expect([body.model, body.max_tokens]).toEqual(['claude-haiku-4-5', 8192]);
    expect(body.tools).toEqual([{ name: 'read_file', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }]);
  });

  it('refuses a thinking budget that leaves no room below max_tokens, before any request', async () => {
    const factory = await anthropicFactory();
    expect(() => factory.create({ base_url: 'http://127.0.0.1:9', thinking_budget: '8192' })).toThrow(expect.objectContaining({ envelope: expect.objectContaining({ code: 'OPTION_INVALID', failed_parameter: 'thinking_budget' }) }));
    expect(() => factory.create({ base_url: 'http://127.0.0.1:9', thinking_budget: '512' })).toThrow(expect.objectContaining({ envelope: expect.objectContaining({ category: 'VALIDATION_FAILED' }) }));
    expect(() => factory.create({ base_url: 'http://127.0.0.1:9', max_attempts: 'many' })).toThrow(expect.objectContaining({ envelope: expect.objectContaining({ failed_parameter: 'max_attempts' }) }));
  });
});
