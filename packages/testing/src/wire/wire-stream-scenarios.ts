import { expect } from 'vitest';
import { WIRE_CODECS } from './wire-codecs.js';
import type { WireDialect, WireToolCall } from './wire-reply.js';
import type { WireScenario } from './wire-scenario.js';
import { drain, expectFailure, expectFinished, ofType, texts, wireRequest, within } from './wire-suite-support.js';

/** Tool call ids in each provider's own shape. */
function callId(dialect: WireDialect, name: string): string {
  return dialect === 'anthropic' ? `toolu_01Wire${name}` : `call_Wire${name}`;
}

/** Scenarios of streams that work: text, tool calls, usage, a slow stream, and a cancel mid-stream. */
export const STREAM_SCENARIOS: readonly WireScenario[] = [
  {
    name: 'streams plain text deltas in order, sends the request once to the streaming endpoint, and stops once',
    async run(t) {
      const { server, provider } = await t.serve([{ kind: 'stream', text: ['Hel', 'lo', ' wor', 'ld'], usage: { input: 10, output: 4 } }]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      expectFinished(outcome, 'end_turn');
      expect(texts(outcome.events)).toEqual(['Hel', 'lo', ' wor', 'ld']);
      expect(ofType(outcome.events, 'retry')).toEqual([]);
      expect(server.requests).toHaveLength(1);
      const request = server.requests[0]!;
      expect([request.method, new URL(request.path, server.url).pathname]).toEqual(['POST', WIRE_CODECS[t.dialect].path]);
      expect(request.body).toMatchObject({ stream: true });
      expect(JSON.stringify(request.body)).toContain('"hi"');
      expect(JSON.stringify(request.body)).toContain('read_file');
    },
  },
  {
    name: 'sends the system prompt the way its API wants one (Anthropic system blocks with prompt caching, OpenAI a system message or instructions)',
    async run(t) {
      const system = '# You are nodwyn, a coding agent\n\nWorkspace: /w';
      const { server, provider } = await t.serve([{ kind: 'stream', text: ['ok'] }]);
      expectFinished(await drain(provider, { ...wireRequest(), system }, new AbortController().signal), 'end_turn');
      const body = server.requests[0]!.body as Record<string, unknown>;
      if (t.dialect === 'anthropic') expect(body.system).toEqual([{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }]);
      if (t.dialect === 'openai-chat') expect((body.messages as unknown[])[0]).toEqual({ role: 'system', content: system });
      if (t.dialect === 'openai-responses') expect(body.instructions).toBe(system);
      // Without one, none is sent: an empty system prompt is not a prompt.
      const bare = await t.serve([{ kind: 'stream', text: ['ok'] }]);
      expectFinished(await drain(bare.provider, wireRequest(), new AbortController().signal), 'end_turn');
      const plain = bare.server.requests[0]!.body as Record<string, unknown>;
      expect([plain.system, plain.instructions, (plain.messages as { role: string }[] | undefined)?.some((m) => m.role === 'system')]).toEqual([undefined, undefined, t.dialect === 'openai-responses' ? undefined : false]);
    },
  },
  {
    name: 'streams two parallel tool calls with fragmented arguments as deltas, then each call with parsed args',
    async run(t) {
      const a = callId(t.dialect, 'A');
      const b = callId(t.dialect, 'B');
      const calls: WireToolCall[] = [
        { id: a, name: 'read_file', argsFragments: ['{"pa', 'th": "a', '.txt"}'] },
        { id: b, name: 'read_file', argsFragments: ['{"path"', ': "b.txt"}'] },
      ];
      const { server, provider } = await t.serve([{ kind: 'stream', text: ['Reading both.'], toolCalls: calls }]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      expectFinished(outcome, 'tool_use');
      expect(ofType(outcome.events, 'tool_call').map((e) => e.call)).toEqual([
        { id: a, name: 'read_file', args: { path: 'a.txt' } },
        { id: b, name: 'read_file', args: { path: 'b.txt' } },
      ]);
      const deltas = ofType(outcome.events, 'tool_call_delta');
      for (const call of calls) expect(deltas.filter((d) => d.callId === call.id).map((d) => d.argsFragment).join('')).toBe(call.argsFragments.join(''));
      expect(deltas.every((d) => d.callId === a || d.callId === b)).toBe(true);
      expect(server.requests).toHaveLength(1);
    },
  },
  {
    name: 'reports usage with cache tokens once, right before stop',
    async run(t) {
      const { server, provider } = await t.serve([{ kind: 'stream', text: ['ok'], usage: { input: 100, output: 20, cache_read: 30, cache_write: 5 } }]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      expectFinished(outcome, 'end_turn');
      const usage = ofType(outcome.events, 'usage');
      expect(usage).toHaveLength(1);
      expect(usage[0]!.usage).toMatchObject({ input: 100, output: 20, cache_read: 30, ...(t.dialect === 'anthropic' ? { cache_write: 5 } : {}) });
      expect(server.requests).toHaveLength(1);
    },
  },
  {
    name: 'yields the first delta of a slow stream while the server is still writing, then every delta in order',
    async run(t) {
      const deltas = Array.from({ length: 8 }, (_, i) => `d${i} `);
      const { server, provider } = await t.serve([{ kind: 'stream', text: deltas, delayMs: 40 }]);
      let serverDoneAtFirstDelta: boolean | undefined;
      const outcome = await drain(provider, wireRequest(), new AbortController().signal, (event) => {
        if (event.type === 'text' && serverDoneAtFirstDelta === undefined) serverDoneAtFirstDelta = server.requests[0]?.finished;
      });
      expectFinished(outcome, 'end_turn');
      expect(serverDoneAtFirstDelta).toBe(false);
      expect(texts(outcome.events)).toEqual(deltas);
      expect(server.requests).toHaveLength(1);
    },
  },
  {
    name: 'fails a call aborted after its first delta with CANCELLED, and closes the connection',
    async run(t) {
      const { server, provider } = await t.serve([{ kind: 'stream', text: Array.from({ length: 30 }, (_, i) => `c${i} `), delayMs: 40 }]);
      const controller = new AbortController();
      const outcome = await drain(provider, wireRequest(), controller.signal, (event) => {
        if (event.type === 'text') controller.abort();
      });
      expectFailure(outcome, 'CANCELLED', ['CANCELLED']);
      expect(texts(outcome.events)[0]).toBe('c0 ');
      expect(texts(outcome.events).length).toBeLessThan(30);
      expect(server.requests).toHaveLength(1);
      await within(server.requests[0]!.settled, 5_000, 'the server to see the connection close');
      expect(server.requests[0]!.aborted).toBe(true);
    },
  },
];
