import type { LoopStrategy } from '@nodwyn/plugin-api';
import { startTestKernel, startWireServer, type TestKernel, type WireServer } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { providerAnthropicPlugin } from '../src/index.js';
import { anthropicFactory } from './plugin-context.js';

/** Calls the model until it stops asking for tools (at most three times). */
const untilAnswered: LoopStrategy = {
  id: 'until-answered',
  description: 'calls the model until it answers without tool calls',
  async run(floor) {
    for (let i = 0; i < 3; i++) {
      const message = await floor.callModel();
      if (message.toolCalls.length === 0) return { answer: message.text };
      await floor.runToolCalls(message);
    }
    return { answer: '' };
  },
};

let t: TestKernel | undefined;
let server: WireServer | undefined;
afterEach(async () => {
  await t?.stop();
  await server?.close();
  t = undefined;
  server = undefined;
});

describe('a turn through the kernel', () => {
  it('logs thinking, tool calls, usage and cost, and sends the signed thinking back through the guarded fetch', async () => {
    server = await startWireServer('anthropic', [
      { kind: 'stream', thinking: ['Need the file.'], toolCalls: [{ id: 'toolu_01K', name: 'read_file', argsFragments: ['{"path":"a.txt"}'] }], usage: { input: 40, output: 12, cache_read: 100, cache_write: 20 } },
      { kind: 'stream', text: ['There is no such tool here.'] },
    ]);
    t = await startTestKernel({ plugins: [providerAnthropicPlugin] });
    const provider = await (await anthropicFactory()).create({ base_url: server.url, model: 'claude-haiku-4-5', thinking_budget: '1024' });
    const result = await t.run('read a.txt', { provider, loop: untilAnswered });
    expect(result.answer).toBe('There is no such tool here.');

    const assistant = t.events(result.session).filter((e) => e.type === 'message.assistant').map((e) => e.payload);
    expect(assistant[0]).toMatchObject({
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      stop_reason: 'tool_use',
      tool_calls: [{ id: 'toolu_01K', name: 'read_file', args: { path: 'a.txt' } }],
      thinking: [{ text: 'Need the file.', signature: expect.stringMatching(/.+/) }],
      usage: { input: 40, output: 12, cache_read: 100, cache_write: 20 },
      cost_usd: expect.any(Number),
    });
    const signature = (assistant[0]!.thinking as { signature: string }[])[0]!.signature;
    const second = server.requests[1]!.body as { messages: { role: string; content: { type: string; signature?: string; is_error?: boolean }[] }[] };
    expect(second.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'Need the file.', signature });
    expect(second.messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01K', is_error: true });
  });
});
