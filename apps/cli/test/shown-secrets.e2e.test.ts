import { startWireServer, type WireServer } from '@nodwyn/testing';
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, CliSandbox } from './cli.js';

const ENV = { NODWYN_KEYCHAIN_PASSPHRASE: 'e2e-passphrase' };
// A key L1 has no pattern for: only the keychain's memory of it (L2) can recognise it in the answer.
const KEY = 'Zq7Hk2mW9pX4vB8nR3tY6uJ1cF5dL0sA';

let box: CliSandbox;
const servers: WireServer[] = [];
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(async () => {
  box.remove();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An OpenAI-compatible model that repeats the key it is sent, split across deltas; the key is bound to it. */
async function echoingModel(): Promise<string[]> {
  const api = await startWireServer('openai-chat', [1, 2, 3].map(() => ({ kind: 'stream' as const, text: ['Your key is ', KEY.slice(0, 9), KEY.slice(9, 20), `${KEY.slice(20)}, thanks.`] })));
  servers.push(api);
  expect(box.run(['secret', 'add', 'model', '--class', 'control-plane'], KEY, undefined, ENV).code).toBe(0);
  expect(box.run(['bind', 'add', 'control-plane', '--host', new URL(api.url).host, '--position', 'header:authorization', '--method', 'POST'], undefined, undefined, ENV).code).toBe(0);
  return ['run', 'hi', '--provider', 'openai-compatible', '--base-url', api.url, '--api-key', 'model', '--model', 'm'];
}

/** Runs nodwyn with a terminal (`script` gives it one), without blocking the loopback server in this process. */
function inTerminal(args: readonly string[]): Promise<{ status: number | null; stdout: string }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: box.workspace, env: { ...box.env, ...ENV }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stdin.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout });
    }),
  );
}

describe('what is shown to a person passes the text layers', () => {
  it('a model endpoint echoing the key it was sent, split across deltas, never prints it (piped, --json, terminal)', async () => {
    const args = await echoingModel();
    const piped = await box.runAsync(args, undefined, ENV);
    expect(piped.code, piped.stderr).toBe(0);
    // Streamed text is shown redacted; the answer itself held a remembered secret, so it is withheld whole.
    expect(piped.stdout).toContain('withheld as a whole');
    const json = await box.runAsync([...args, '--json'], undefined, ENV);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain('"type":"delta.text"');
    const tty = await inTerminal(args);
    expect(tty.status, tty.stdout).toBe(0);
    expect(tty.stdout).toContain('Your key is [REDACTED');
    for (const out of [piped.stdout, piped.stderr, json.stdout, json.stderr, tty.stdout]) {
      expect(out).not.toContain(KEY);
      expect(out).not.toContain(KEY.slice(0, 20));
    }
  });

  it('`nodwyn capability test` never prints the secret a failing example put in its output', () => {
    box.write('mode.txt', 'quiet\n');
    // The token is assembled at run time, so the code and the examples never hold it.
    const LEAKY = {
      name: 'leaky',
      description: 'Says ok, or leaks a token when mode.txt says so.',
      input_schema: { type: 'object', properties: {} },
      grants: { read: true },
      code: [
        'type Door = { readFile(path: string): string | Promise<string> };',
        "export default async (_: object, nodwyn: Door) => String(await nodwyn.readFile('mode.txt')).startsWith('quiet') ? 'ok' : ['gh', 'p_', 'Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78'].join('');",
      ].join('\n'),
      examples: [{ args: {}, expect: 'ok' }],
    };
    const admitted = box.run(['run', 'work', '--yes', '--script', box.script([{ toolCalls: [{ name: 'register_capability', args: LEAKY }] }, { text: 'ok' }])]);
    expect(admitted.code, admitted.stderr).toBe(0);
    box.write('mode.txt', 'loud\n');
    const test = box.run(['capability', 'test', 'leaky']);
    expect(test.stdout).toContain('FAIL  example 1');
    expect(`${test.stdout}${test.stderr}`).not.toContain('Ab12Cd34Ef56Gh78Ij90');
  });
});
