import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { environmentContributor, environmentText } from './environment.js';

let workspace: string;
beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-env-')));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const tools = [
  { name: 'read_file', description: 'Reads a text file of the workspace. Use it before editing.\nMore detail.', inputSchema: {} },
  { name: 'shell', description: 'Runs a command', inputSchema: {} },
];
const request = () => ({ session: 's', workspace, tools, signal: new AbortController().signal, logged: new Set<string>() });
const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });

describe('environmentText', () => {
  it('names the workspace, OS, shell, date, git branch and status, and each tool with what it is for', async () => {
    git('init', '-q', '-b', 'feature/brief');
    writeFileSync(join(workspace, 'new.ts'), 'x');
    const text = await environmentText(request(), new Date('2026-12-02T10:00:00Z'));
    expect(text).toContain(`Workspace (every path is relative to it, and the tools cannot leave it): ${workspace}`);
    expect(text).toContain(`- OS: `);
    expect(text).toContain('- Shell: bash');
    expect(text).toContain('- Date when the session started: 2026-12-02');
    expect(text).toContain('- Git branch: feature/brief');
    expect(text).toContain('0 changed, 1 untracked (new.ts)');
    expect(text).toContain('- `read_file`: Reads a text file of the workspace.');
    expect(text).toContain('- `shell`: Runs a command');
  });

  it('offers its part until the session logged it, then nothing (its git status is read once per session)', async () => {
    const contributor = environmentContributor();
    expect((await contributor.parts(request())).map((p) => p.id)).toEqual(['environment.workspace']);
    expect(await contributor.parts({ ...request(), logged: new Set(['environment.workspace']) })).toEqual([]);
  });

  it('says so outside a git repository', async () => {
    expect(await environmentText(request())).toContain('- Git: not a git repository');
  });

  it("runs none of the repository's filters or fsmonitor while reading the status", async () => {
    git('init', '-q', '-b', 'main');
    const marker = join(workspace, 'ran');
    git('config', 'core.fsmonitor', `touch ${marker}; false`);
    git('config', 'filter.evil.clean', `touch ${marker}; cat`);
    writeFileSync(join(workspace, '.gitattributes'), '* filter=evil\n');
    writeFileSync(join(workspace, 'a.txt'), 'a');
    git('-c', 'core.fsmonitor=false', '-c', 'filter.evil.clean=cat', 'add', '.');
    git('-c', 'core.fsmonitor=false', '-c', 'filter.evil.clean=cat', '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    writeFileSync(join(workspace, 'a.txt'), 'changed');
    const text = await environmentText(request());
    expect(text).toContain('1 changed');
    expect(() => execFileSync('test', ['-e', marker])).toThrow();
  });
});
