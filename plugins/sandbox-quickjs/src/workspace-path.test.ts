import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confinePath } from './workspace-path.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-confine-')));
const workspace = join(root, 'ws');
mkdirSync(join(workspace, 'src'), { recursive: true });
mkdirSync(join(workspace, '.nodwyn'));
writeFileSync(join(root, 'secret.txt'), 'x');
symlinkSync(join(root, 'secret.txt'), join(workspace, 'out-link'));
symlinkSync(join(workspace, '.nodwyn'), join(workspace, 'cfg'));
symlinkSync(join(workspace, 'src'), join(workspace, 'src-link'));

async function codeOf(path: string): Promise<string | undefined> {
  return confinePath(workspace, path, 'nodwyn.readFile').then(
    () => undefined,
    (error: { envelope?: { code?: string } }) => error.envelope?.code,
  );
}

describe('confinePath', () => {
  it('answers paths inside the workspace relative to its real path, through symlinks that stay inside', async () => {
    expect(await confinePath(workspace, 'src/a.ts', 'd')).toBe('src/a.ts');
    expect(await confinePath(workspace, './src/../src/new/deep.txt', 'd')).toBe('src/new/deep.txt');
    expect(await confinePath(workspace, 'src-link/a.ts', 'd')).toBe('src/a.ts');
  });

  it.each([
    ['../secret.txt', 'SANDBOX_PATH_OUTSIDE'],
    ['/etc/passwd', 'SANDBOX_PATH_OUTSIDE'],
    ['out-link', 'SANDBOX_PATH_OUTSIDE'],
    ['.nodwyn/config.toml', 'SANDBOX_PATH_RESERVED'],
    ['src/../.NoDwYn/x', 'SANDBOX_PATH_RESERVED'],
    ['src/.nodwyn/x', 'SANDBOX_PATH_RESERVED'],
    ['cfg/config.toml', 'SANDBOX_PATH_RESERVED'],
    ['', 'SANDBOX_DOOR_ARGUMENT'],
    ['a\0b', 'SANDBOX_DOOR_ARGUMENT'],
  ])('refuses %j with %s', async (path, code) => {
    expect(await codeOf(path)).toBe(code);
  });
});
