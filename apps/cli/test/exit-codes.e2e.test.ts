import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, jsonLines } from './cli.js';

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

describe('nodwyn exit codes and bad input', () => {
  it('exits 2 on a usage error', () => {
    expect(box.run(['run', 'x', '--no-such-flag']).code).toBe(2);
    expect(box.run(['frobnicate']).code).toBe(2);
    expect(box.run(['run', 'x', '--max-turns', 'zero']).code).toBe(2);
  });

  it('exits 3 with an envelope on a malformed script, and writes nothing to the log', () => {
    const bad = box.write(`${box.root}/bad.json`, '{"replies": [{"toolCalls": [{"name": 7, "args": {}}]}]}');
    const out = box.run(['run', 'x', '--script', bad]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('VALIDATION_FAILED');
    expect(out.stderr).toContain('$.replies[0].toolCalls[0].name');
    const notJson = box.write(`${box.root}/broken.json`, '{"replies": [');
    expect(box.run(['run', 'x', '--script', notJson]).code).toBe(3);
    expect(box.run(['run', 'x', '--script', `${box.root}/missing.json`]).stderr).toContain('NOT_FOUND');
    expect(box.sessions()).toEqual([]);
  });

  it('prints the envelope as JSON on stderr with --json', () => {
    const out = box.run(['run', 'x', '--json', '--script', `${box.root}/missing.json`]);
    expect(out.code).toBe(3);
    expect(JSON.parse(out.stderr)).toMatchObject({ status: 'error', category: 'NOT_FOUND' });
  });

  it('exits 3 when the script runs out, with the envelope logged', () => {
    const out = box.run(['run', 'x', '--json', '--script', box.script([{ toolCalls: [{ name: 'list_dir', args: {} }] }])]);
    expect(out.code).toBe(3);
    const end = jsonLines(out.stdout).at(-1)!;
    expect([end.type, end.payload.reason, (end.payload.envelope as { code: string }).code]).toEqual(['turn.ended', 'failed', 'SCRIPT_EXHAUSTED']);
  });

  it('exits 4 at the turn budget', () => {
    const loop = Array.from({ length: 5 }, (_, i) => ({ toolCalls: [{ name: 'list_dir', args: { depth: i + 1 } }] }));
    const out = box.run(['run', 'x', '--max-turns', '2', '--script', box.script(loop)]);
    expect(out.code).toBe(4);
    expect(out.stderr).toContain('BUDGET_TURNS');
  });

  it('exits 4 when the progress guard sees the same call three times', () => {
    const same = { toolCalls: [{ name: 'list_dir', args: {} }] };
    const out = box.run(['run', 'x', '--script', box.script([same, same, same, same])]);
    expect(out.code).toBe(4);
    expect(out.stderr).toContain('PROGRESS_REPEATED_CALL');
  });

  it('denies shell without confirmation, and runs it with --yes', () => {
    const script = box.script([{ toolCalls: [{ name: 'shell', args: { command: 'echo made > made.txt' } }] }, { text: '{{lastToolResult}}' }]);
    const denied = box.run(['run', 'x', '--script', script]);
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain('CONFIRMATION_REQUIRED');
    expect(() => readFileSync(`${box.workspace}/made.txt`)).toThrow();
    const allowed = box.run(['run', 'x', '--yes', '--script', script]);
    expect(allowed.stdout).toContain('exit code: 0');
    expect(readFileSync(`${box.workspace}/made.txt`, 'utf8')).toBe('made\n');
    const logged = jsonLines(box.run(['run', 'x', '--yes', '--json', '--script', script]).stdout).filter((e) => e.type.startsWith('confirmation.'));
    expect(logged.map((e) => [e.type, e.payload.effect ?? e.payload.by])).toEqual([
      ['confirmation.requested', 'shell:echo made > made.txt'],
      ['confirmation.decided', '--yes'],
    ]);
  });

  it('runs allow-listed shell commands without confirmation', () => {
    box.write(`${box.home}/config.toml`, '[tools.shell]\nallow = ["echo *"]\n');
    const out = box.run(['run', 'x', '--script', box.script([{ toolCalls: [{ name: 'shell', args: { command: 'echo allowed' } }] }, { text: '{{lastToolResult}}' }])]);
    expect(out.stdout).toContain('allowed');
    expect(out.stdout).not.toContain('CONFIRMATION_REQUIRED');
  });

  it('exits 130 on SIGINT, killing the running command and logging why', async () => {
    const script = box.script([{ toolCalls: [{ name: 'shell', args: { command: 'sleep 30' } }] }, { text: 'never' }]);
    const child = box.start(['run', 'x', '--yes', '--json', '--script', script]);
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (stdout.includes('"message.assistant"')) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    const end = jsonLines(stdout).at(-1)!;
    expect([end.type, end.payload.reason]).toEqual(['turn.ended', 'cancelled']);
    expect(box.run(['log', 'verify']).code).toBe(0);
  });

  it('exits 3 with a clear envelope on a broken config file', () => {
    box.write(`${box.home}/config.toml`, '[budgets]\nmax_turns = "many"\n');
    const out = box.run(['run', 'x', '--script', box.script([{ text: 'x' }])]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('$.budgets.max_turns');
  });
});
