import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolsCorePlugin } from '../src/index.js';

const CONFIG = '[core]\n\trepositoryformatversion = 0\n';
const FSMONITOR = '[core]\n\tfsmonitor = "touch /tmp/pwned"\n';
let running: TestKernel | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function repository(): Promise<TestKernel> {
  running = await startTestKernel({ plugins: [toolsCorePlugin] });
  mkdirSync(join(running.workspace, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(running.workspace, '.git', 'config'), CONFIG);
  return running;
}

describe('writes into .git/', () => {
  it('are CONFIRMATION_REQUIRED without a person: core.fsmonitor never reaches .git/config, nor a hook .git/hooks', async () => {
    const kernel = await repository();
    symlinkSync(join(kernel.workspace, '.git'), join(kernel.workspace, 'meta'));
    const attempts = [
      kernel.apply('write_file', { path: '.git/config', content: FSMONITOR }),
      kernel.apply('edit_file', { path: '.git/config', old_string: 'repositoryformatversion = 0', new_string: 'fsmonitor = "touch /tmp/pwned"' }),
      kernel.apply('write_file', { path: '.GIT/hooks/pre-commit', content: '#!/bin/sh\ntouch /tmp/pwned\n' }),
      kernel.apply('write_file', { path: 'meta/config', content: FSMONITOR }),
    ];
    for (const result of await Promise.all(attempts)) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.envelope.category).toBe('CONFIRMATION_REQUIRED');
    }
    expect(readFileSync(join(kernel.workspace, '.git', 'config'), 'utf8')).toBe(CONFIG);
  });

  it('go ahead once a person says yes, and other files need no one', async () => {
    const kernel = await repository();
    const asked: string[] = [];
    const confirm = { confirm: async (request: { reason: string }) => (asked.push(request.reason), true) };
    expect((await kernel.apply('write_file', { path: '.git/config', content: FSMONITOR }, { confirm })).ok).toBe(true);
    expect(asked[0]).toContain('.git/');
    expect((await kernel.apply('write_file', { path: 'src/.gitignore', content: 'dist\n' })).ok).toBe(true);
    expect((await kernel.apply('write_file', { path: 'docs/git/notes.md', content: 'x' })).ok).toBe(true);
  });
});
