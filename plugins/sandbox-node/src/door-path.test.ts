import { isEnvelopeError } from '@nodwyn/plugin-api';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDoorPath } from './door-path.js';

let root: string;
let workspace: string;
let data: string;

async function codeOf(path: string): Promise<string> {
  try {
    await checkDoorPath(workspace, path, [data]);
  } catch (error) {
    if (isEnvelopeError(error)) return error.envelope.code ?? '';
    throw error;
  }
  return 'allowed';
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-door-path-')));
  workspace = join(root, 'ws');
  data = join(workspace, 'home');
  mkdirSync(join(workspace, '.nodwyn'), { recursive: true });
  mkdirSync(join(workspace, 'src'));
  mkdirSync(data);
  writeFileSync(join(workspace, 'src', 'a.txt'), 'a');
  writeFileSync(join(root, 'outside.txt'), 'o');
  symlinkSync(join(root, 'outside.txt'), join(workspace, 'out-link'));
  symlinkSync(join(workspace, '.nodwyn'), join(workspace, 'cfg'));
  symlinkSync('src', join(workspace, 'src-link'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('checkDoorPath', () => {
  it('allows files in the workspace, existing or not, also through symlinks that stay inside', async () => {
    expect(await checkDoorPath(workspace, 'src/a.txt', [data])).toEqual({ relative: 'src/a.txt', real: join(workspace, 'src', 'a.txt') });
    expect(await codeOf('src/new/deeper.txt')).toBe('allowed');
    expect(await checkDoorPath(workspace, 'src-link/a.txt', [data])).toEqual({ relative: 'src-link/a.txt', real: join(workspace, 'src', 'a.txt') });
  });

  it('refuses absolute paths, .. and symlinks that lead out', async () => {
    expect(await codeOf(join(workspace, 'src', 'a.txt'))).toBe('SANDBOX_PATH_OUTSIDE');
    expect(await codeOf('../outside.txt')).toBe('SANDBOX_PATH_OUTSIDE');
    expect(await codeOf('src/../../outside.txt')).toBe('SANDBOX_PATH_OUTSIDE');
    expect(await codeOf('out-link')).toBe('SANDBOX_PATH_OUTSIDE');
  });

  it('refuses .nodwyn/ in any case and through a symlink, and the data directory', async () => {
    for (const path of ['.nodwyn/config.toml', '.NODWYN/x', 'src/../.Nodwyn/x', 'cfg/config.toml', 'src/.nodwyn', 'home/nodwyn.db']) {
      expect(await codeOf(path), path).toBe('SANDBOX_PATH_RESERVED');
    }
    expect(await codeOf('.nodwyner/x')).toBe('allowed');
  });

  it('refuses what is not a path', async () => {
    for (const path of ['', 'a\0b', 42, undefined]) expect(await codeOf(path as string)).toBe('SANDBOX_DOOR_ARGUMENT');
  });
});
