import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApplyResult } from '@nodwyn/plugin-api';
import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { toolsCorePlugin } from '../src/index.js';

let running: TestKernel | undefined;
const temps: string[] = [];

afterEach(async () => {
  await running?.stop();
  running = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function content(result: ApplyResult): string {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.envelope)}`);
  return result.content;
}

/**
 * A workspace that is a git repository with one committed and then modified file, whose `.git/config`
 * was then written (as a model could, once a write into `.git/` was confirmed) with every setting below,
 * each of which would run `touch MARKERS/<name>`.
 */
async function hostileRepository(allow: string[]): Promise<{ kernel: TestKernel; markers: string }> {
  const markers = mkdtempSync(join(tmpdir(), 'nodwyn-git-markers-'));
  temps.push(markers);
  const kernel = await startTestKernel({ plugins: [toolsCorePlugin], settings: { tools: { shell: { allow } } } });
  running = kernel;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: kernel.workspace, stdio: 'pipe' });
  git('init', '-q', '.');
  writeFileSync(join(kernel.workspace, 'a.txt'), 'one\n');
  writeFileSync(join(kernel.workspace, '.gitattributes'), '*.txt filter=evil diff=evil\n');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.test', 'commit', '-qm', 'init');
  writeFileSync(join(kernel.workspace, 'a.txt'), 'one\ntwo\n');
  const touch = (name: string) => `touch ${join(markers, name)}`;
  const hostile: Record<string, string> = {
    'core.fsmonitor': `${touch('fsmonitor')}; false`,
    'core.pager': `${touch('pager')}; cat`,
    'pager.log': `${touch('pager-log')}; cat`,
    'alias.st': `!${touch('alias')}`,
    'filter.evil.clean': `${touch('filter-clean')}; cat`,
    'filter.evil.smudge': `${touch('filter-smudge')}; cat`,
    'filter.evil.process': touch('filter-process'),
    'diff.evil.textconv': `${touch('textconv')}; cat`,
    'diff.external': touch('external-diff'),
    'credential.helper': `!${touch('credential')}`,
  };
  for (const [key, value] of Object.entries(hostile)) git('config', key, value);
  return { kernel, markers };
}

describe('an allow-listed command in a repository whose own git config runs programs', () => {
  it('runs git status, git diff, git log and an allow-listed alias without running any of them', async () => {
    const { kernel, markers } = await hostileRepository(['git status', 'git diff', 'git log *', 'git st']);
    const status = content(await kernel.apply('shell', { command: 'git status' }));
    expect(status).toMatch(/^exit code: 0\n/);
    expect(status).toContain('modified:   a.txt');
    expect(status).toContain('switched off: core.fsmonitor');
    const diff = content(await kernel.apply('shell', { command: 'git diff' }));
    // The repository's external diff is neither run nor replaced: git diff stops and says so.
    expect(diff).toMatch(/^exit code: 128\n[\s\S]*external diff died[\s\S]*switched off: /);
    expect(content(await kernel.apply('shell', { command: 'git log -p' }))).toMatch(/^exit code: 0\n[\s\S]*\+one/);
    expect(content(await kernel.apply('shell', { command: 'git st' }))).toMatch(/^exit code: 1\n[\s\S]*alias 'st'/);
    expect(readdirSync(markers)).toEqual([]);
  });

  it('says which settings it switched off', async () => {
    const { kernel } = await hostileRepository(['git status']);
    const note = content(await kernel.apply('shell', { command: 'git status' })).split('\n').at(-1);
    expect(note).toBe(
      "[nodwyn: allow-listed commands run without the repository's git settings that run programs; switched off: " +
        'core.fsmonitor, core.pager, pager.log, alias.st, filter.evil.clean, filter.evil.smudge, filter.evil.process, diff.evil.textconv, diff.external, credential.helper]',
    );
  });

  it('leaves a command a person confirmed as it is: the same repository then runs its fsmonitor', async () => {
    const { kernel, markers } = await hostileRepository(['git status']);
    content(await kernel.apply('shell', { command: 'git status --short' }, { confirm: true }));
    expect(existsSync(join(markers, 'fsmonitor'))).toBe(true);
  });
});
