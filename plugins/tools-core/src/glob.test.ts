import { describe, expect, it } from 'vitest';
import { call, callContext, expectEnvelope, tempDir, writeTree } from '../test/call-context.js';
import { ignoreFixture } from '../test/ignore-fixture.js';
import { createGlobTool } from './glob.js';

const glob = createGlobTool({ maxEntries: 1000 });

describe('glob', () => {
  it('finds files at any depth, sorted, skipping gitignored files (nested too), .git and symlinks', async () => {
    const ws = ignoreFixture();
    const result = await call(glob, { pattern: '**/*.ts' }, callContext(ws));
    expect(result.content.split('\n')).toEqual(['pkg/sub/local-only/w.ts', 'src/a.ts', 'src/gen/y.ts']);
  });

  it('honours a negation in .gitignore and matches dotfiles', async () => {
    const ws = ignoreFixture();
    expect((await call(glob, { pattern: '**/*.log' }, callContext(ws))).content).toBe('src/keep.log');
    expect((await call(glob, { pattern: '.github/**' }, callContext(ws))).content).toBe('.github/workflows/ci.yml');
    expect((await call(glob, { pattern: '**/HEAD' }, callContext(ws))).content).toMatch(/^\[no files match/);
  });

  it('searches below `path` and prints paths relative to the workspace root', async () => {
    const ws = ignoreFixture();
    const result = await call(glob, { pattern: '*.{ts,js}', path: 'src' }, callContext(ws));
    expect(result.content.split('\n')).toEqual(['src/a.ts', 'src/b.js']);
  });

  it('finds a gitignored file when its ignored directory is the path', async () => {
    const ws = ignoreFixture();
    expect((await call(glob, { pattern: '**/*.js', path: 'node_modules' }, callContext(ws))).content).toBe('node_modules/dep/index.js');
  });

  it('caps the list and gives the total', async () => {
    const ws = tempDir();
    writeTree(ws, Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`d/f${String(index).padStart(2, '0')}.md`, ''])));
    const result = await call(createGlobTool({ maxEntries: 10 }), { pattern: '**/*.md' }, callContext(ws));
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('d/f00.md');
    expect(lines[10]).toBe('[showed 10 of 25 matching files; narrow the pattern or the path]');
  });

  it('says when nothing matches', async () => {
    const ws = tempDir();
    expect((await call(glob, { pattern: '**/*.rs' }, callContext(ws))).content).toBe('[no files match "**/*.rs" in .; gitignored files are not searched]');
  });

  it.each(['../**/*', '/etc/*', 'src/../../*', '{..,src}/*', 'a/{x,..}/b'])('refuses the pattern %s as reaching outside', async (pattern) => {
    const ws = tempDir();
    const envelope = await expectEnvelope(call(glob, { pattern }, callContext(ws)), 'PERMISSION_DENIED', 'PATH_OUTSIDE_WORKSPACE');
    expect(envelope.failed_parameter).toBe('$.pattern');
  });

  it('refuses a path through a symlink out of the workspace', async () => {
    const ws = ignoreFixture();
    await expectEnvelope(call(glob, { pattern: '*', path: 'outlink' }, callContext(ws)), 'PERMISSION_DENIED', 'PATH_SYMLINK_ESCAPE');
  });

  it('stops when the call is cancelled', async () => {
    const ws = ignoreFixture();
    const controller = new AbortController();
    controller.abort();
    await expectEnvelope(call(glob, { pattern: '**/*' }, callContext(ws, { signal: controller.signal })), 'CANCELLED', 'TOOL_CANCELLED');
  });
});
