import { LogEventSchema } from '@nodwyn/protocol';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, jsonLines } from './cli.js';

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

describe('nodwyn run (scripted, end to end)', () => {
  it('reads, greps, edits and writes files, then the log verifies', () => {
    box.write('src/app.ts', 'export const greeting = "hello";\n');
    box.write('.gitignore', 'ignored/\n');
    box.write('ignored/hit.ts', 'hello from an ignored file\n');
    const script = box.script([
      { text: 'Looking.', toolCalls: [{ name: 'read_file', args: { path: 'src/app.ts' } }, { name: 'grep', args: { pattern: 'hello' } }] },
      { toolCalls: [{ name: 'edit_file', args: { path: 'src/app.ts', old_string: '"hello"', new_string: '"hi"' } }] },
      { toolCalls: [{ name: 'write_file', args: { path: 'NOTES.md', content: 'greeting changed\n' } }] },
      { text: 'Done. {{lastToolResult}}' },
    ]);
    const out = box.run(['run', 'change the greeting', '--script', script]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^Done\. /);
    expect(readFileSync(`${box.workspace}/src/app.ts`, 'utf8')).toBe('export const greeting = "hi";\n');
    expect(readFileSync(`${box.workspace}/NOTES.md`, 'utf8')).toBe('greeting changed\n');
    const [session] = box.sessions();
    const grep = box.events(session!.id).find((e) => e.type === 'tool.completed' && e.payload.name === 'grep')!;
    expect(grep.payload.content).toContain('src/app.ts:1:');
    expect(grep.payload.content).not.toContain('ignored/hit.ts');
    const verify = box.run(['log', 'verify']);
    expect([verify.code, verify.stdout]).toEqual([0, expect.stringContaining('log intact: 1 session(s)')]);
  });

  it('continues a session in a second process with the full window rebuilt from the log', () => {
    box.write('data.txt', 'the answer is 42\n');
    const first = box.run(['run', 'read data.txt', '--script', box.script([{ toolCalls: [{ name: 'read_file', args: { path: 'data.txt' } }] }, { text: 'read it' }])]);
    expect(first.code, first.stderr).toBe(0);
    const [session] = box.sessions();
    // The second process has no memory of the first: the last tool result can only come from the log.
    const second = box.run(['run', 'what did it say?', '--session', session!.id, '--script', box.script([{ text: 'earlier: {{lastToolResult}} / now: {{lastUserMessage}}' }])]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('the answer is 42');
    expect(second.stdout).toContain('now: what did it say?');
    expect(box.sessions()).toHaveLength(1);
    const types = box.events(session!.id).map((e) => e.type);
    expect(types.filter((t) => t === 'message.user')).toHaveLength(2);
    expect(box.run(['log', 'verify', session!.id]).code).toBe(0);
  });

  it('--json prints every event of the run as it is appended, hashes included', () => {
    const out = box.run(['run', 'hi', '--json', '--script', box.script([{ toolCalls: [{ name: 'list_dir', args: {} }] }, { text: 'bye' }])]);
    expect(out.code, out.stderr).toBe(0);
    const events = jsonLines(out.stdout);
    for (const e of events) expect(LogEventSchema.safeParse(e).success).toBe(true);
    // The brief's parts (context.added) are logged as the loop starts, before the first model call.
    expect(events.map((e) => e.type)).toEqual([
      'session.created', 'session.titled', 'message.user', 'turn.started', 'context.added', 'context.added', 'message.assistant', 'tool.completed', 'message.assistant', 'turn.ended',
    ]);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (let i = 1; i < events.length; i++) expect(events[i]!.prev).toBe(events[i - 1]!.hash);
    expect(box.events(events[0]!.session)).toEqual(events);
  });

  it('gives a tool failure to the model as an envelope and carries on', () => {
    const out = box.run(['run', 'x', '--json', '--script', box.script([
      { toolCalls: [{ name: 'no_such_tool', args: {} }, { name: 'read_file', args: { path: 42 } }, { name: 'edit_file', args: { path: 'missing.txt', old_string: 'a', new_string: 'b' } }] },
      { text: 'recovered: {{lastToolResult}}' },
    ])]);
    expect(out.code, out.stderr).toBe(0);
    const failures = jsonLines(out.stdout).filter((e) => e.type === 'tool.denied' || e.type === 'tool.failed');
    expect(failures.map((e) => (e.payload.envelope as { category: string }).category)).toEqual(['NOT_FOUND', 'VALIDATION_FAILED', 'NOT_FOUND']);
    expect((failures[1]!.payload.envelope as { failed_parameter: string }).failed_parameter).toBe('$.path');
    const answer = jsonLines(out.stdout).at(-1)!;
    expect(answer.payload.answer).toMatch(/^recovered: \{.*"status":"error"/);
  });

  it('refuses paths outside the workspace, by traversal and through a symlink', async () => {
    const { symlinkSync } = await import('node:fs');
    box.write(`${box.root}/outside.txt`, 'outside secret\n');
    symlinkSync(`${box.root}/outside.txt`, `${box.workspace}/link.txt`);
    const out = box.run(['run', 'x', '--json', '--script', box.script([
      { toolCalls: [{ name: 'read_file', args: { path: '../outside.txt' } }, { name: 'read_file', args: { path: 'link.txt' } }, { name: 'write_file', args: { path: '/tmp/nodwyn-escape.txt', content: 'x' } }] },
      { text: 'ok' },
    ])]);
    expect(out.code, out.stderr).toBe(0);
    const codes = jsonLines(out.stdout).filter((e) => e.type === 'tool.failed' || e.type === 'tool.denied').map((e) => (e.payload.envelope as { code: string }).code);
    expect(codes).toEqual(['PATH_OUTSIDE_WORKSPACE', 'PATH_SYMLINK_ESCAPE', 'PATH_OUTSIDE_WORKSPACE']);
    expect(out.stdout).not.toContain('outside secret');
  });
});
