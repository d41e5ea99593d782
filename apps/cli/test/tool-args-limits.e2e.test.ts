import { startWireServer, type WireServer } from '@nodwyn/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox } from './cli.js';

const DEPTH = 2000;
const deepText = `{"path":"a.txt","deep":${'{"x":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}}`;
const ENV = { NODWYN_KEYCHAIN_PASSPHRASE: 'e2e-passphrase' };

let box: CliSandbox;
const servers: WireServer[] = [];
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(async () => {
  box.remove();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function replyWithDeepArgs(dialect: 'openai-chat' | 'anthropic'): Promise<WireServer> {
  const fragments = deepText.match(/.{1,500}/gs)!;
  const server = await startWireServer(dialect, [{ kind: 'stream', text: ['Reading the ', 'file now.'], toolCalls: [{ id: 'call_1', name: 'read_file', argsFragments: fragments }] }]);
  servers.push(server);
  return server;
}

// Before: the reply's text streamed, then logging the message threw (the log refuses payloads nested deeper
// than 128), so the log kept no trace of the reply (scripted: the provider overflowed its stack first).
function expectRefusedButLogged(out: { code: number | null; stdout: string; stderr: string }): void {
  expect(out.code, out.stderr).toBe(3);
  expect(out.stderr).toMatch(/error LIMIT_EXCEEDED TOOL_ARGS_TOO_DEEP/);
  expect(out.stderr).not.toMatch(/\n\s+at /);
  const session = box.sessions()[0]!.id;
  const events = box.events(session);
  const assistant = events.find((e) => e.type === 'message.assistant');
  expect(assistant?.payload).toMatchObject({ text: 'Reading the file now.', tool_calls: [] });
  expect(events.at(-1)).toMatchObject({ type: 'turn.ended', payload: { reason: 'failed', envelope: { code: 'TOOL_ARGS_TOO_DEEP' } } });
  expect(events.some((e) => e.type === 'tool.completed')).toBe(false);
  const verify = box.run(['log', 'verify']);
  expect([verify.code, verify.stdout]).toEqual([0, expect.stringContaining('log intact')]);
}

describe('tool arguments nested 2,000 deep', () => {
  it('end the turn with an envelope after the text is logged (scripted provider)', () => {
    const script = box.script([{ text: 'Reading the file now.', toolCalls: [{ name: 'read_file', args: JSON.parse(deepText) as object }] }]);
    expectRefusedButLogged(box.run(['run', 'read it', '--script', script]));
  });

  it('end the turn with an envelope after the text is logged (OpenAI wire format)', async () => {
    const api = await replyWithDeepArgs('openai-chat');
    expectRefusedButLogged(await box.runAsync(['run', 'read it', '--provider', 'openai-compatible', '--base-url', api.url, '--model', 'm']));
  });

  it('end the turn with an envelope after the text is logged (Anthropic wire format)', async () => {
    const api = await replyWithDeepArgs('anthropic');
    const host = new URL(api.url).host;
    expect(box.run(['secret', 'add', 'anthropic', '--class', 'control-plane'], 'sk-ant-api03-deepArgsKey0123456789abcdefghijklmnopqrstuvwxyzABCD', undefined, ENV).code).toBe(0);
    expect(box.run(['bind', 'add', 'control-plane', '--host', host, '--position', 'header:authorization', '--method', 'POST'], undefined, undefined, ENV).code).toBe(0);
    const out = await box.runAsync(['run', 'read it', '--provider', 'anthropic', '--base-url', api.url, '--api-key', 'anthropic', '--model', 'claude-sonnet-4-6'], undefined, ENV);
    expectRefusedButLogged(out);
  });
  it('larger than [budgets] max_tool_args_bytes end the turn with TOOL_ARGS_TOO_LARGE', () => {
    writeFileSync(join(box.home, 'config.toml'), '[budgets]\nmax_tool_args_bytes = 200\n');
    const script = box.script([{ text: 'Writing it.', toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'x'.repeat(500) } }] }]);
    const out = box.run(['run', 'write it', '--script', script]);
    expect(out.code, out.stderr).toBe(3);
    expect(out.stderr).toMatch(/error LIMIT_EXCEEDED TOOL_ARGS_TOO_LARGE/);
    expect(box.events(box.sessions()[0]!.id).find((e) => e.type === 'message.assistant')?.payload).toMatchObject({ text: 'Writing it.', tool_calls: [] });
  });
});
