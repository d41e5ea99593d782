import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, callContext, expectEnvelope, tempDir, writeTree } from '../test/call-context.js';
import { ignoreFixture } from '../test/ignore-fixture.js';
import { createListDirTool } from './list-dir.js';

const listDir = createListDirTool({ maxEntries: 1000 });

describe('list_dir', () => {
  it('lists one level, sorted, dirs marked with / and symlinks with @, ignored entries and .git left out', async () => {
    const ws = ignoreFixture();
    const result = await call(listDir, { depth: 1 }, callContext(ws));
    expect(result.content.split('\n')).toEqual(['.github/', '.gitignore', 'inlink.ts@', 'outlink@', 'pkg/', 'src/']);
  });

  it('descends depth levels, each directory before its entries, honouring nested .gitignore files', async () => {
    const ws = ignoreFixture();
    const result = await call(listDir, { path: 'src', depth: 3 }, callContext(ws));
    expect(result.content.split('\n')).toEqual(['src/a.ts', 'src/b.js', 'src/gen/', 'src/gen/.gitignore', 'src/gen/y.ts', 'src/keep.log']);
  });

  it('applies an anchored rule of a nested .gitignore only at its own level', async () => {
    const ws = ignoreFixture();
    const result = await call(listDir, { path: 'pkg', depth: 3 }, callContext(ws));
    expect(result.content.split('\n')).toEqual(['pkg/.gitignore', 'pkg/sub/', 'pkg/sub/local-only/', 'pkg/sub/local-only/w.ts']);
  });

  it('does not follow a symlinked directory out of the workspace', async () => {
    const ws = ignoreFixture();
    const result = await call(listDir, { depth: 5 }, callContext(ws));
    expect(result.content).toContain('outlink@');
    expect(result.content).not.toContain('secret.ts');
  });

  it('lists a gitignored directory asked for by name', async () => {
    const ws = ignoreFixture();
    const result = await call(listDir, { path: 'node_modules' }, callContext(ws));
    expect(result.content.split('\n')).toEqual(['node_modules/dep/', 'node_modules/dep/index.js']);
  });

  it('stops at max entries and says so', async () => {
    const ws = tempDir();
    writeTree(ws, Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`f${String(index).padStart(2, '0')}.txt`, ''])));
    const result = await call(createListDirTool({ maxEntries: 10 }), {}, callContext(ws));
    const lines = result.content.split('\n');
    expect(lines.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, index) => `f${String(index).padStart(2, '0')}.txt`));
    expect(lines[10]).toBe('[listing stopped after 10 entries; list a subdirectory or pass a smaller depth to see the rest]');
  });

  it('reports subdirectories it cannot read and goes on', async () => {
    const ws = tempDir();
    writeTree(ws, { 'locked/x.txt': '', 'open/y.txt': '' });
    chmodSync(join(ws, 'locked'), 0o000);
    try {
      const result = await call(listDir, {}, callContext(ws));
      // root ignores permissions, so there the listing simply includes the file.
      const readable = process.getuid?.() === 0;
      expect(result.content).toContain('open/y.txt');
      expect(result.content.includes('[could not read: locked/]')).toBe(!readable);
    } finally {
      chmodSync(join(ws, 'locked'), 0o755);
    }
  });

  it('says when a directory has no entries', async () => {
    const ws = tempDir();
    mkdirSync(join(ws, 'empty'));
    expect((await call(listDir, { path: 'empty' }, callContext(ws))).content).toBe('[no entries in empty; gitignored entries are not listed]');
  });

  it('answers PATH_NOT_DIRECTORY for a file and DIRECTORY_NOT_FOUND for a missing path', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': '' });
    await expectEnvelope(call(listDir, { path: 'a.txt' }, callContext(ws)), 'VALIDATION_FAILED', 'PATH_NOT_DIRECTORY');
    await expectEnvelope(call(listDir, { path: 'nope' }, callContext(ws)), 'NOT_FOUND', 'DIRECTORY_NOT_FOUND');
  });

  it('refuses to list outside the workspace', async () => {
    const ws = tempDir();
    await expectEnvelope(call(listDir, { path: '..' }, callContext(ws)), 'PERMISSION_DENIED', 'PATH_OUTSIDE_WORKSPACE');
    await expectEnvelope(call(listDir, { path: 'outlink' }, callContext(ignoreFixture())), 'PERMISSION_DENIED', 'PATH_SYMLINK_ESCAPE');
  });

  it('stops when the call is cancelled', async () => {
    const ws = ignoreFixture();
    const controller = new AbortController();
    controller.abort();
    await expectEnvelope(call(listDir, {}, callContext(ws, { signal: controller.signal })), 'CANCELLED', 'TOOL_CANCELLED');
  });
});
