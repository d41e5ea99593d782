import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, callContext, expectEnvelope, tempDir, writeTree } from '../test/call-context.js';
import { writeFileTool } from './write-file.js';

describe('write_file', () => {
  it('creates a file and its missing parent directories', async () => {
    const ws = tempDir();
    const result = await call(writeFileTool, { path: 'a/b/c.txt', content: 'héllo\n' }, callContext(ws));
    expect(readFileSync(join(ws, 'a/b/c.txt'), 'utf8')).toBe('héllo\n');
    expect(result.content).toBe('Created a/b/c.txt (7 bytes written).');
    expect(result.data).toEqual({ path: 'a/b/c.txt', bytes: 7, created: true });
  });

  it('overwrites an existing file and says how large it was', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': 'old content' });
    const result = await call(writeFileTool, { path: 'a.txt', content: 'new' }, callContext(ws));
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('new');
    expect(result.content).toBe('Overwrote a.txt (3 bytes written; it had 11 bytes).');
  });

  it('refuses to write over a directory', async () => {
    const ws = tempDir();
    mkdirSync(join(ws, 'src'));
    await expectEnvelope(call(writeFileTool, { path: 'src', content: 'x' }, callContext(ws)), 'VALIDATION_FAILED', 'PATH_IS_DIRECTORY');
  });

  it('refuses a path whose parent is a file', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': 'x' });
    await expectEnvelope(call(writeFileTool, { path: 'a.txt/b.txt', content: 'x' }, callContext(ws)), 'VALIDATION_FAILED', 'PATH_NOT_DIRECTORY');
  });

  it('creates nothing outside through a symlinked parent directory', async () => {
    const ws = tempDir();
    const outside = tempDir();
    symlinkSync(outside, join(ws, 'out'));
    await expectEnvelope(call(writeFileTool, { path: 'out/sub/pwned.txt', content: 'x' }, callContext(ws)), 'PERMISSION_DENIED', 'PATH_SYMLINK_ESCAPE');
    expect(existsSync(join(outside, 'sub'))).toBe(false);
  });

  it('creates nothing outside through a dangling symlink', async () => {
    const ws = tempDir();
    const outside = tempDir();
    symlinkSync(join(outside, 'pwned.txt'), join(ws, 'dangling.txt'));
    await expectEnvelope(call(writeFileTool, { path: 'dangling.txt', content: 'x' }, callContext(ws)), 'PERMISSION_DENIED', 'PATH_SYMLINK_ESCAPE');
    expect(existsSync(join(outside, 'pwned.txt'))).toBe(false);
  });

  it('refuses a traversal out of the workspace', async () => {
    const ws = tempDir();
    await expectEnvelope(call(writeFileTool, { path: '../escape.txt', content: 'x' }, callContext(ws)), 'PERMISSION_DENIED', 'PATH_OUTSIDE_WORKSPACE');
  });
});
