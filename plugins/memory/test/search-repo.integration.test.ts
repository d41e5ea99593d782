import type { TestKernel } from '@nodwyn/testing';
import { readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoIndexFile } from '../src/memory-state.js';
import { content, failure, removeTemps, startMemoryKernel, tempDir, writeTree } from './fixtures.js';

let running: TestKernel | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  removeTemps();
});

async function start(files: Record<string, string | Buffer>, settings: Record<string, unknown> = {}): Promise<TestKernel> {
  const workspace = tempDir();
  writeTree(workspace, files);
  running = await startMemoryKernel({ workspace, settings });
  return running;
}

describe('search_repo', () => {
  it('prints path:line:text of the lines holding every word, best file first, honouring .gitignore', async () => {
    const kernel = await start({
      '.gitignore': 'dist/\n',
      'src/config.ts': 'import x from "y";\nexport function loadConfig() {}\n// load the config file\n',
      'src/short.ts': 'load config\n',
      'dist/config.js': 'load config\n',
      'docs/notes.md': 'We load things.\n',
    });
    const out = content(await kernel.apply('search_repo', { query: 'load config' }));
    expect(out.split('\n')).toEqual(['src/short.ts:1:load config', 'src/config.ts:3:// load the config file']);
  });

  it('keeps to a path, and says how to widen a search that found nothing', async () => {
    const kernel = await start({ 'a/x.ts': 'needle\n', 'b/x.ts': 'needle\n', 'ab/x.ts': 'needle\n' });
    expect(content(await kernel.apply('search_repo', { query: 'needle', path: 'a/' }))).toBe('a/x.ts:1:needle');
    expect(content(await kernel.apply('search_repo', { query: 'needle', path: 'b/x.ts' }))).toBe('b/x.ts:1:needle');
    expect(content(await kernel.apply('search_repo', { query: 'haystack' }))).toMatch(/^\[no lines hold "haystack"/);
    expect(failure(await kernel.apply('search_repo', { query: 'needle', path: '../elsewhere' }))).toMatchObject({ code: 'MEMORY_PATH_OUTSIDE_WORKSPACE' });
  });

  it('stops at max_results and says more exist', async () => {
    const kernel = await start({ 'a.txt': 'word\n'.repeat(10) });
    const lines = content(await kernel.apply('search_repo', { query: 'word', max_results: 3 })).split('\n');
    expect(lines.slice(0, 3)).toEqual(['a.txt:1:word', 'a.txt:2:word', 'a.txt:3:word']);
    expect(lines[3]).toMatch(/^\[stopped at 3 lines; more exist/);
  });

  it('skips binary files and files over the size limit', async () => {
    const kernel = await start({ 'bin.dat': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0, 1, 2]), 'big.txt': `needle\n${'x'.repeat(5000)}\n`, 'ok.txt': 'needle\n' }, { memory: { max_file_bytes: 4096 } });
    expect(content(await kernel.apply('search_repo', { query: 'needle' }))).toBe('ok.txt:1:needle');
  });

  it('sees an edit made through the file tools at the next search, and forgets a deleted file at the next pass', async () => {
    const kernel = await start({ 'a.ts': 'old words\n', 'gone.ts': 'old words\n' }, { memory: { rescan_ms: 0 } });
    const session = kernel.session();
    expect(content(await kernel.apply('search_repo', { query: 'old' }, { session }))).toContain('a.ts:1:old words');
    content(await kernel.apply('edit_file', { path: 'a.ts', old_string: 'old words', new_string: 'fresh words' }, { session }));
    unlinkSync(join(kernel.workspace, 'gone.ts'));
    expect(content(await kernel.apply('search_repo', { query: 'fresh' }, { session }))).toBe('a.ts:1:fresh words');
    expect(content(await kernel.apply('search_repo', { query: 'old' }, { session }))).toMatch(/^\[no lines hold/);
  });

  it('checks every file again before the next search once a shell command ran, however recent the last check', async () => {
    const kernel = await start({ 'a.ts': 'before\n' }, { memory: { rescan_ms: 86_400_000 } });
    const session = kernel.session();
    expect(content(await kernel.apply('search_repo', { query: 'before' }, { session }))).toBe('a.ts:1:before');
    content(await kernel.apply('shell', { command: 'echo after > a.ts' }, { session, confirm: true }));
    expect(content(await kernel.apply('search_repo', { query: 'after' }, { session }))).toBe('a.ts:1:after');
    writeFileSync(join(kernel.workspace, 'a.ts'), 'outside\n');
    // Changed behind nodwyn's back, and the last check is recent: found at the next full pass, not now.
    expect(content(await kernel.apply('search_repo', { query: 'outside' }, { session }))).toMatch(/^\[no lines hold/);
  });

  it('re-reads only files whose size or mtime changed, and re-indexes only when the hash changed', async () => {
    const kernel = await start({ 'a.ts': 'alpha\n', 'b.ts': 'beta\n' }, { memory: { rescan_ms: 0 } });
    content(await kernel.apply('search_repo', { query: 'alpha' }));
    writeFileSync(join(kernel.workspace, 'b.ts'), 'gamma\n');
    expect(content(await kernel.apply('search_repo', { query: 'gamma' }))).toBe('b.ts:1:gamma');
    expect(content(await kernel.apply('search_repo', { query: 'beta' }))).toMatch(/^\[no lines hold/);
  });

  it('turns an FTS syntax error into VALIDATION_FAILED naming the query, not an SQLite message', async () => {
    const kernel = await start({ 'a.ts': 'x\n' });
    const envelope = failure(await kernel.apply('search_repo', { query: '"unbalanced OR (' }));
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'MEMORY_QUERY_INVALID', received_value: '"unbalanced OR (' });
    expect(JSON.stringify(envelope)).not.toMatch(/sqlite|syntax error near|unterminated string/i);
  });

  it('rebuilds a corrupt index instead of trusting it', async () => {
    const workspace = tempDir();
    const dataDir = tempDir();
    writeTree(workspace, { 'a.ts': 'needle\n' });
    const kernel = await startMemoryKernel({ workspace, dataDir });
    expect(content(await kernel.apply('search_repo', { query: 'needle' }))).toBe('a.ts:1:needle');
    await kernel.stop();
    const file = repoIndexFile(dataDir, workspace);
    expect(readdirSync(join(dataDir, 'memory', 'repos'))).toContain(basename(file));
    writeFileSync(file, 'this is not a database'.repeat(100));
    rmSync(`${file}-wal`, { force: true });
    running = await startMemoryKernel({ workspace, dataDir });
    expect(content(await running.apply('search_repo', { query: 'needle' }))).toBe('a.ts:1:needle');
  });

  it('answers within its budget while a large index is being built, saying the answer is partial', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 4000; i++) files[`d${i % 40}/f${i}.txt`] = `common words here\nline ${i}\n`;
    const kernel = await start(files, { memory: { index_budget_ms: 0 } });
    const first = content(await kernel.apply('search_repo', { query: 'common', max_results: 1000 }));
    expect(first).toMatch(/\[partial: the repository index is still being built/);
    let later = first;
    for (let tries = 0; tries < 200 && later.includes('[partial'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      later = content(await kernel.apply('search_repo', { query: '"line 3999"' }));
    }
    expect(later).toBe('d39/f3999.txt:2:line 3999');
  }, 60_000);
});

describe('search_repo without the text layer', () => {
  it('refuses to index rather than index unredacted text', async () => {
    const { memoryPlugin } = await import('../src/index.js');
    const { startTestKernel } = await import('@nodwyn/testing');
    running = await startTestKernel({ plugins: [memoryPlugin] });
    writeFileSync(join(running.workspace, 'a.ts'), 'needle\n');
    expect(failure(await running.apply('search_repo', { query: 'needle' }))).toMatchObject({ code: 'MEMORY_TEXT_LAYERS_MISSING' });
    rmSync(join(running.workspace, 'a.ts'));
  });
});
