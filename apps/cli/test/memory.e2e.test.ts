import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox } from './cli.js';

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

describe('memory indexes through the real CLI', () => {
  it('a scripted model finds lines with search_repo, and recalls an earlier event by seq', () => {
    box.write('src/retry.ts', 'export function backoffDelay(attempt: number) {\n  return 2 ** attempt * 100;\n}\n');
    box.write('.gitignore', 'build/\n');
    box.write('build/retry.js', 'function backoffDelay() {}\n');
    const script = box.script([
      { toolCalls: [{ name: 'search_repo', args: { query: 'backoffDelay' } }] },
      { toolCalls: [{ name: 'recall', args: { seq: 3 } }] },
      { text: 'Found: {{lastToolResult}}' },
    ]);
    const out = box.run(['run', 'where is the backoff computed?', '--script', script]);
    expect(out.code, out.stderr).toBe(0);
    const [session] = box.sessions();
    const search = box.events(session!.id).find((e) => e.type === 'tool.completed' && e.payload.name === 'search_repo')!;
    expect(search.payload.content).toBe('src/retry.ts:1:export function backoffDelay(attempt: number) {');
    expect(out.stdout).toContain('"type": "message.user"');
    expect(out.stdout).toContain('where is the backoff computed?');
    expect(box.run(['log', 'verify']).code).toBe(0);
  });

  it('nodwyn memory rebuild makes the indexes anew from the log and the files, also from a corrupt index', () => {
    box.write('notes.md', 'the quarterly report\n');
    const script = box.script([{ toolCalls: [{ name: 'search_repo', args: { query: 'quarterly' } }] }, { text: 'ok' }]);
    expect(box.run(['run', 'find the report', '--script', script]).code).toBe(0);
    const repos = join(box.home, 'memory', 'repos');
    const [file] = readdirSync(repos).filter((name) => name.endsWith('.db'));
    writeFileSync(join(repos, file!), 'garbage, not SQLite '.repeat(200));
    const rebuilt = box.run(['memory', 'rebuild', '--json']);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const report = JSON.parse(rebuilt.stdout) as { sessions: number; events: number; files: number };
    expect(report).toMatchObject({ sessions: 1, files: 1 });
    expect(report.events).toBeGreaterThan(3);
    expect(existsSync(join(box.home, 'memory', 'sessions.db'))).toBe(true);
    const again = box.run(['run', 'find it again', '--script', box.script([{ toolCalls: [{ name: 'search_repo', args: { query: 'quarterly' } }] }, { text: '{{lastToolResult}}' }])]);
    expect(again.stdout.trim()).toBe('notes.md:1:the quarterly report');
    expect(box.run(['memory', 'nonsense']).code).toBe(2);
  });

  it('search_history searches earlier sessions only with leave from the person\'s own config, never from a trusted repository\'s', () => {
    box.write('notes.md', 'the marmalade decision\n');
    const read = box.script([{ toolCalls: [{ name: 'read_file', args: { path: 'notes.md' } }] }, { text: 'read' }]);
    expect(box.run(['run', 'read the notes', '--script', read]).code).toBe(0);
    const [earlier] = box.sessions();
    const ask = () => box.run(['run', 'what was decided?', '--script', box.script([{ toolCalls: [{ name: 'search_history', args: { query: 'marmalade' } }] }, { text: '{{lastToolResult}}' }])]);

    box.write('.nodwyn/config.toml', '[memory]\ncross_session = true\n');
    const trusted = box.run(['trust', '--yes']);
    expect(trusted.code, trusted.stderr).toBe(0);
    const refused = ask();
    expect(refused.stderr).toContain('ignoring memory.cross_session in .nodwyn/config.toml');
    expect(refused.stdout).toContain('MEMORY_CROSS_SESSION_DISABLED');

    box.write(join(box.home, 'config.toml'), '[memory]\ncross_session = true\n');
    const allowed = ask();
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(new RegExp(`^session ${earlier!.id} seq \\d+ · tool\\.completed · .*«marmalade»`));
  });
});
