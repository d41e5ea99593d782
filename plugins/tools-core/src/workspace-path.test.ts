import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectEnvelope, tempDir, writeTree } from '../test/call-context.js';
import { resolveInWorkspace } from './workspace-path.js';

describe('resolveInWorkspace', () => {
  it('resolves a relative path to its real path and keeps the spelling for messages', async () => {
    const ws = tempDir();
    writeTree(ws, { 'src/a.ts': 'x' });
    const target = await resolveInWorkspace({ workspace: ws }, './src/../src/a.ts', 'read_file');
    expect(target).toMatchObject({ root: ws, real: join(ws, 'src/a.ts'), display: 'src/a.ts' });
  });

  it('accepts a path that does not exist yet, below missing directories', async () => {
    const ws = tempDir();
    const target = await resolveInWorkspace({ workspace: ws }, 'new/deep/file.txt', 'write_file');
    expect(target.real).toBe(join(ws, 'new/deep/file.txt'));
  });

  it('accepts names that merely start with two dots', async () => {
    const ws = tempDir();
    const target = await resolveInWorkspace({ workspace: ws }, '..hidden', 'read_file');
    expect(target.display).toBe('..hidden');
  });

  it('accepts an absolute path inside the workspace', async () => {
    const ws = tempDir();
    const target = await resolveInWorkspace({ workspace: ws }, join(ws, 'a.txt'), 'read_file');
    expect(target.display).toBe('a.txt');
  });

  it.each(['../x', 'src/../../x', '/etc/passwd', '..'])('refuses %s as outside the workspace', async (path) => {
    const ws = tempDir();
    const envelope = await expectEnvelope(resolveInWorkspace({ workspace: ws }, path, 'read_file'), 'PERMISSION_DENIED', 'PATH_OUTSIDE_WORKSPACE');
    expect(envelope.failed_parameter).toBe('$.path');
    expect(envelope.received_value).toBe(path);
  });

  it('refuses a path with a NUL byte', async () => {
    const ws = tempDir();
    await expectEnvelope(resolveInWorkspace({ workspace: ws }, 'a\0b', 'read_file'), 'VALIDATION_FAILED', 'PATH_INVALID');
  });

  it('refuses a symlinked file that points outside', async () => {
    const ws = tempDir();
    const outside = tempDir();
    writeTree(outside, { 'secret.txt': 'top secret' });
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'link.txt'));
    const envelope = await expectEnvelope(resolveInWorkspace({ workspace: ws }, 'link.txt', 'read_file'), 'PERMISSION_DENIED', 'PATH_SYMLINK_ESCAPE');
    expect(envelope.failed_parameter).toBe('$.path');
  });

  it('refuses a new file below a symlinked directory that points outside', async () => {
    const ws = tempDir();
    const outside = tempDir();
    symlinkSync(outside, join(ws, 'out'));
    await expectEnvelope(resolveInWorkspace({ workspace: ws }, 'out/new/file.txt', 'write_file'), 'PERMISSION_DENIED', 'PATH_SYMLINK_ESCAPE');
  });

  it('refuses a dangling symlink whose target would be outside', async () => {
    const ws = tempDir();
    const outside = tempDir();
    symlinkSync(join(outside, 'not-yet.txt'), join(ws, 'dangling'));
    await expectEnvelope(resolveInWorkspace({ workspace: ws }, 'dangling', 'write_file'), 'PERMISSION_DENIED', 'PATH_SYMLINK_ESCAPE');
  });

  it('refuses a chain of dangling symlinks that ends outside', async () => {
    const ws = tempDir();
    const outside = tempDir();
    symlinkSync(join(outside, 'gone/x'), join(ws, 'second'));
    symlinkSync('second', join(ws, 'first'));
    await expectEnvelope(resolveInWorkspace({ workspace: ws }, 'first', 'write_file'), 'PERMISSION_DENIED', 'PATH_SYMLINK_ESCAPE');
  });

  it('follows a dangling symlink that stays inside to where the file would be created', async () => {
    const ws = tempDir();
    mkdirSync(join(ws, 'real'));
    symlinkSync('real/later.txt', join(ws, 'alias.txt'));
    const target = await resolveInWorkspace({ workspace: ws }, 'alias.txt', 'write_file');
    expect(target.real).toBe(join(ws, 'real/later.txt'));
  });

  it('follows a symlink that stays inside', async () => {
    const ws = tempDir();
    writeTree(ws, { 'docs/guide.md': '#' });
    symlinkSync(join(ws, 'docs'), join(ws, 'manual'));
    const target = await resolveInWorkspace({ workspace: ws }, 'manual/guide.md', 'read_file');
    expect(target).toMatchObject({ real: join(ws, 'docs/guide.md'), display: 'manual/guide.md' });
  });

  it('reports a symlink loop', async () => {
    const ws = tempDir();
    symlinkSync('b', join(ws, 'a'));
    symlinkSync('a', join(ws, 'b'));
    await expectEnvelope(resolveInWorkspace({ workspace: ws }, 'a', 'read_file'), 'VALIDATION_FAILED', 'PATH_SYMLINK_LOOP');
  });
});
