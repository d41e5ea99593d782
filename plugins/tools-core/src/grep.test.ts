import { describe, expect, it } from 'vitest';
import { call, callContext, expectEnvelope, tempDir, writeTree } from '../test/call-context.js';
import { ignoreFixture } from '../test/ignore-fixture.js';
import { createGrepTool } from './grep.js';

const grep = createGrepTool({ maxEntries: 1000 });

describe('grep', () => {
  it('prints path:line:text, skipping gitignored files (nested too), .git, node_modules and symlinks', async () => {
    const ws = ignoreFixture();
    const result = await call(grep, { pattern: 'needle' }, callContext(ws));
    expect(result.content.split('\n')).toEqual([
      '.github/workflows/ci.yml:1:run: needle ci',
      'pkg/sub/local-only/w.ts:1:needle w',
      'src/a.ts:2:const needle = 1;',
      'src/gen/y.ts:1:needle y',
      'src/keep.log:1:needle keep',
    ]);
  });

  it('matches regardless of case when asked', async () => {
    const ws = ignoreFixture();
    const result = await call(grep, { pattern: 'NEEDLE (here|keep)', case_insensitive: true }, callContext(ws));
    expect(result.content.split('\n')).toEqual(['src/b.js:1:Needle here', 'src/keep.log:1:needle keep']);
  });

  it('filters files by glob: a pattern without a slash matches names at any depth', async () => {
    const ws = ignoreFixture();
    expect((await call(grep, { pattern: 'needle', glob: '*.ts' }, callContext(ws))).content.split('\n')).toEqual([
      'pkg/sub/local-only/w.ts:1:needle w',
      'src/a.ts:2:const needle = 1;',
      'src/gen/y.ts:1:needle y',
    ]);
    expect((await call(grep, { pattern: 'needle', path: 'src', glob: 'gen/*.ts' }, callContext(ws))).content).toBe('src/gen/y.ts:1:needle y');
  });

  it('searches a single file given as path', async () => {
    const ws = ignoreFixture();
    expect((await call(grep, { pattern: 'const', path: 'src/a.ts' }, callContext(ws))).content).toBe('src/a.ts:1:const x = 1;\nsrc/a.ts:2:const needle = 1;');
  });

  it('skips binary files', async () => {
    const ws = tempDir();
    writeTree(ws, { 'blob.bin': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]), 'text.txt': 'needle\n' });
    expect((await call(grep, { pattern: 'needle' }, callContext(ws))).content).toBe('text.txt:1:needle');
  });

  it('stops at max_results and says more exist', async () => {
    const ws = tempDir();
    writeTree(ws, { 'many.txt': 'hit\n'.repeat(20) });
    const lines = (await call(grep, { pattern: 'hit', max_results: 5 }, callContext(ws))).content.split('\n');
    expect(lines.slice(0, 5)).toEqual([1, 2, 3, 4, 5].map((line) => `many.txt:${line}:hit`));
    expect(lines[5]).toBe('[stopped at 5 matches; more exist: narrow the pattern, path or glob, or raise max_results]');
    expect(lines).toHaveLength(6);
  });

  it('keeps within the output cap', async () => {
    const ws = tempDir();
    writeTree(ws, { 'wide.txt': `${'hit '.repeat(100)}\n`.repeat(200) });
    const result = await call(grep, { pattern: 'hit', max_results: 200 }, callContext(ws, { outputCap: 8192 }));
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(8192);
    expect(result.content.split('\n').at(-1)).toMatch(/^\[output cap reached: showed \d+ of 200 matches\]$/);
  });

  it('says when nothing matches', async () => {
    const ws = ignoreFixture();
    expect((await call(grep, { pattern: 'haystack' }, callContext(ws))).content).toBe(
      '[no matches for /haystack/ in .; gitignored and binary files are not searched]',
    );
  });

  it('answers GREP_INVALID_REGEX for a broken pattern', async () => {
    const ws = tempDir();
    const envelope = await expectEnvelope(call(grep, { pattern: 'foo(' }, callContext(ws)), 'VALIDATION_FAILED', 'GREP_INVALID_REGEX');
    expect(envelope.failed_parameter).toBe('$.pattern');
  });

  // With a backtracking engine each of these lines takes longer than the test's timeout (exponential in the
  // line's length), and a synchronous match cannot be cancelled: the whole process hangs.
  it('matches catastrophic patterns in linear time, with the right answer', async () => {
    const ws = tempDir();
    writeTree(ws, { 'a.txt': `${'a'.repeat(5000)}b\n${'a'.repeat(5000)}\n` });
    expect((await call(grep, { pattern: '(a+)+$' }, callContext(ws))).content).toBe(`a.txt:2:${'a'.repeat(500)}… [4500 more characters]`);
    expect((await call(grep, { pattern: '^(a|aa)*b' }, callContext(ws))).content).toBe(`a.txt:1:${'a'.repeat(500)}… [4501 more characters]`);
    expect((await call(grep, { pattern: '(x+x+)+y' }, callContext(ws))).content).toMatch(/^\[no matches/);
  });

  it('names the pattern in a VALIDATION_FAILED envelope for backreferences and lookaround', async () => {
    const ws = tempDir();
    for (const pattern of ['(a)\\1', 'a(?=b)', '(?<!x)y']) {
      const envelope = await expectEnvelope(call(grep, { pattern }, callContext(ws)), 'VALIDATION_FAILED', 'GREP_INVALID_REGEX');
      expect(envelope.received_value).toBe(pattern);
      expect(envelope.remediation).toContain('not supported');
    }
  });

  it('refuses paths outside the workspace, directly or through a symlink', async () => {
    const ws = ignoreFixture();
    await expectEnvelope(call(grep, { pattern: 'needle', path: '../' }, callContext(ws)), 'PERMISSION_DENIED', 'PATH_OUTSIDE_WORKSPACE');
    await expectEnvelope(call(grep, { pattern: 'needle', path: 'outlink' }, callContext(ws)), 'PERMISSION_DENIED', 'PATH_SYMLINK_ESCAPE');
  });

  it('stops when the call is cancelled', async () => {
    const ws = ignoreFixture();
    const controller = new AbortController();
    controller.abort();
    await expectEnvelope(call(grep, { pattern: 'needle' }, callContext(ws, { signal: controller.signal })), 'CANCELLED', 'TOOL_CANCELLED');
  });
});
