import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, CliSandbox } from './cli.js';

// Cursor-up + erase-line (hides the line above), an OSC 52 clipboard write ended by BEL, a one-byte CSI,
// a backspace, a lone CR and a right-to-left override: each acts on a terminal instead of showing.
const HOSTILE = 'ok\x1b[1A\x1b[2K\x1b]52;c;ZXZpbA==\x07\x9b2J\bX\rY\u202eZ';
const RAW = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
  box.write('notes.txt', `${HOSTILE}\n`);
});
afterEach(() => box.remove());

function readThenEcho(): string {
  return box.script([{ toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] }, { text: 'It says: {{lastToolResult}}' }]);
}

describe('terminal control sequences from a file', () => {
  it('are shown as visible escapes in the answer, in `log show`, and stay exact in --json', () => {
    const run = box.run(['run', 'read notes.txt', '--script', readThenEcho()]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('\\x1b[1A\\x1b[2K\\x1b]52;c;ZXZpbA==\\x07\\x9b2J\\x08X\\x0dY\\u202eZ');
    expect(run.stdout).not.toMatch(RAW);
    const [session] = box.sessions();
    const show = box.run(['log', 'show', session!.id]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('\\x1b[1A');
    expect(show.stdout).not.toMatch(RAW);
    const json = box.run(['log', 'show', session!.id, '--json']);
    expect(json.stdout).not.toMatch(RAW);
    const completed = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; payload: { content?: string } }).find((e) => e.type === 'tool.completed');
    expect(completed?.payload.content).toContain(HOSTILE);
  });

  it('are shown as visible escapes in text streamed to a terminal', () => {
    // `script` gives nodwyn a real terminal, so the answer streams as deltas instead of being printed at the end.
    const command = [process.execPath, BIN, 'run', 'read notes.txt', '--script', readThenEcho()].map((a) => `'${a}'`).join(' ');
    const out = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: box.workspace, env: box.env, encoding: 'utf8', timeout: 30_000 });
    expect(out.status, out.stderr).toBe(0);
    const shown = out.stdout.replace(/\r\n/g, '\n');
    expect(shown).toContain('It says: ');
    expect(shown).toContain('\\x1b]52;c;ZXZpbA==\\x07');
    expect(shown).not.toMatch(RAW);
  });
});
