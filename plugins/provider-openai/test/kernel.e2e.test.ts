import { describeProviderConformance, echoPlugin, startTestKernel, startWireServer, toolLoop, type TestKernel, type WireServer } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { providerOpenAiPlugin } from '../src/index.js';
import { factory } from './plugin-context.js';

let running: TestKernel | undefined;
const servers: WireServer[] = [];
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...replies: Parameters<typeof startWireServer>[1]): Promise<WireServer> {
  const server = await startWireServer('openai-chat', replies);
  servers.push(server);
  return server;
}


describeProviderConformance('openai-compatible', async () => {
  const server = await serve({ kind: 'stream', text: ['hello'], usage: { input: 3, output: 1 } });
  return (await factory('openai-compatible')).create({ base_url: server.url, model: 'wire-model' });
});

describe('provider-openai on the real kernel', () => {
  for (const api of ['chat', 'responses'] as const) {
    it(`runs a turn through the guarded fetch (${api}): a streamed tool call, its result sent back by call id, then the answer`, async () => {
      const server = await startWireServer(api === 'chat' ? 'openai-chat' : 'openai-responses', [
        { kind: 'stream', toolCalls: [{ id: 'call_echo1', name: 'echo', argsFragments: ['{"te', 'xt":"ping"}'] }], usage: { input: 20, output: 5 } },
        { kind: 'stream', text: ['echo said ', 'ping'], usage: { input: 30, output: 4, cache_read: 10 } },
      ]);
      servers.push(server);
      running = await startTestKernel({ plugins: [providerOpenAiPlugin, echoPlugin()], settings: { prices: { 'openai-compatible': { 'wire-model': { input: 1, output: 2 } } } } });
      const provider = await running.kernel.providers.get('openai-compatible').item.create({ base_url: server.url, model: 'wire-model', api });
      const result = await running.run('say ping', { provider, loop: toolLoop });

      expect(result).toMatchObject({ reason: 'answer', answer: 'echo said ping' });
      const events = running.events(result.session);
      expect(events.filter((e) => e.type === 'tool.completed').map((e) => [e.payload.call_id, e.payload.content])).toEqual([['call_echo1', 'ping']]);
      const assistants = events.filter((e) => e.type === 'message.assistant').map((e) => e.payload);
      expect(assistants[0]).toMatchObject({ tool_calls: [{ id: 'call_echo1', name: 'echo', args: { text: 'ping' } }], stop_reason: 'tool_use', provider: 'openai-compatible', model: 'wire-model' });
      expect(assistants[1]).toMatchObject({ text: 'echo said ping', stop_reason: 'end_turn', usage: { input: 30, output: 4, cache_read: 10 }, cost_usd: 0.000048 });

      expect(server.requests).toHaveLength(2);
      const second = JSON.stringify(server.requests[1]!.body);
      expect(second).toContain(api === 'chat' ? '"tool_call_id":"call_echo1"' : '"type":"function_call_output","call_id":"call_echo1"');
      expect(second).toContain('"name":"echo"');
    });
  }
});
