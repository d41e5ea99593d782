import type { LogEvent } from '@nodwyn/protocol';
import { startWireServer, type WireServer } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { CliSandbox, notices } from './cli.js';

const ANTHROPIC_KEY = 'sk-ant-api03-e2eKeyThatMustStayInTheKeychain0123456789abcdefXYZ';
let box: CliSandbox | undefined;
const servers: WireServer[] = [];

afterEach(async () => {
  box?.remove();
  box = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(...args: Parameters<typeof startWireServer>): Promise<WireServer> {
  const s = await startWireServer(...args);
  servers.push(s);
  return s;
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('nodwyn run against real provider wire formats on loopback', () => {
  it('reads a file through a streamed tool call from an OpenAI-compatible server, then answers', async () => {
    box = new CliSandbox();
    box.write('notes.txt', 'the launch code word is heliotrope\n');
    const api = await server('openai-chat', [
      { kind: 'stream', toolCalls: [{ id: 'call_1', name: 'read_file', argsFragments: ['{"pa', 'th": "no', 'tes.txt"}'] }], usage: { input: 120, output: 12 } },
      { kind: 'stream', text: ['The code word ', 'is heliotrope.'], usage: { input: 180, output: 8 } },
    ]);
    const out = await box.runAsync(['run', 'what does notes.txt say?', '--provider', 'openai-compatible', '--base-url', api.url, '--model', 'local-coder']);
    expect(notices(out.stderr)).toBe('');
    expect([out.code, out.stdout]).toEqual([0, 'The code word is heliotrope.\n']);
    expect(api.requests).toHaveLength(2);
    // The second request carries the tool's result back to the model, under the model's own call id.
    expect(JSON.stringify(api.requests[1]!.body)).toContain('heliotrope');
    expect(JSON.stringify(api.requests[1]!.body)).toContain('call_1');
    expect(api.requests[0]!.body).toMatchObject({ model: 'local-coder', stream: true });
  });

  it('prints each delta once with --json, next to the log events, and logs each finished message', async () => {
    box = new CliSandbox();
    // One line a delta: streamed text is let out (redacted) a line at a time, so each line stays one delta.
    const words = Array.from({ length: 200 }, (_, i) => `word${i}\n`);
    const api = await server('openai-chat', [{ kind: 'stream', text: words, usage: { input: 10, output: 200 } }]);
    const out = await box.runAsync(['run', 'talk', '--provider', 'openai-compatible', '--base-url', api.url, '--model', 'm', '--json']);
    expect(out.code).toBe(0);
    const lines = jsonLines(out.stdout);
    const deltas = lines.filter((l) => l.type === 'delta.text').map((l) => l.text);
    expect(deltas).toEqual(words);
    const assistant = lines.filter((l) => l.type === 'message.assistant') as unknown as LogEvent[];
    expect(assistant).toHaveLength(1);
    expect(assistant[0]!.payload.text).toBe(words.join(''));
    // Linear output: a word appears once as a delta and once in each logged copy of the answer
    // (message.assistant and turn.ended), never again per later delta.
    expect(out.stdout.split('word150\\n').length - 1).toBe(3);
  });

  it('sends an Anthropic key from the keychain only after the binding allows it, and never logs it', async () => {
    box = new CliSandbox();
    const env = { NODWYN_KEYCHAIN_PASSPHRASE: 'e2e-passphrase' };
    const api = await server('anthropic', [{ kind: 'stream', text: ['Hello ', 'there.'], usage: { input: 5, output: 2, cache_read: 3 } }]);
    const host = new URL(api.url).host;
    expect(box.run(['secret', 'add', 'anthropic', '--class', 'control-plane'], ANTHROPIC_KEY, undefined, env).code).toBe(0);
    const args = ['run', 'hi', '--provider', 'anthropic', '--base-url', api.url, '--api-key', 'anthropic', '--model', 'claude-sonnet-4-6'];
    const unbound = await box.runAsync(args, undefined, env);
    expect(unbound.code).toBe(3);
    expect(unbound.stderr).toContain('GUARD_EGRESS_UNBOUND');
    expect(api.requests).toHaveLength(0);
    expect(box.run(['bind', 'add', 'control-plane', '--host', host, '--position', 'header:authorization', '--method', 'POST'], undefined, undefined, env).code).toBe(0);
    const bound = await box.runAsync(args, undefined, env);
    expect([bound.code, bound.stdout]).toEqual([0, 'Hello there.\n']);
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${ANTHROPIC_KEY}`);
    const session = box.sessions()[0]!.id;
    const events = box.events(session);
    expect(JSON.stringify(events)).not.toContain(ANTHROPIC_KEY);
    const message = events.find((e) => e.type === 'message.assistant')!;
    expect(message.payload).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-6', usage: { input: 5, output: 2, cache_read: 3 } });
    expect(message.payload.cost_usd).toBeGreaterThan(0);
  });

  it('never sends OPENAI_API_KEY from the environment to a server that is not OpenAI', async () => {
    box = new CliSandbox();
    const api = await server('openai-chat', [{ kind: 'stream', text: ['ok'] }]);
    const out = await box.runAsync(['run', 'hi', '--provider', 'openai-compatible', '--base-url', api.url, '--model', 'm'], undefined, { OPENAI_API_KEY: 'sk-proj-envKeyForOpenAiOnly0123456789' });
    expect(out.code).toBe(0);
    expect(JSON.stringify(api.requests[0]!.headers)).not.toContain('envKeyForOpenAiOnly');
  });

  it('lists providers, models and prices, with the prices config extends', () => {
    box = new CliSandbox();
    box.write(`${box.home}/config.toml`, '[prices.openai-compatible."qwen2.5-coder"]\ninput = 0.1\noutput = 0.2\n');
    const out = box.run(['models', '--json']);
    expect(out.code).toBe(0);
    const providers = JSON.parse(out.stdout) as { id: string; models: { id: string; price?: { input: number } }[] }[];
    const byId = new Map(providers.map((p) => [p.id, p]));
    expect(byId.get('anthropic')?.models.find((m) => m.id === 'claude-sonnet-4-6')?.price?.input).toBeGreaterThan(0);
    expect(byId.get('openai')?.models.length).toBeGreaterThan(0);
    expect(byId.get('openai-compatible')?.models).toEqual([{ id: 'qwen2.5-coder', price: { input: 0.1, output: 0.2 } }]);
    const table = box.run(['models']);
    expect(table.stdout).toContain('claude-sonnet-4-6');
  });
});
