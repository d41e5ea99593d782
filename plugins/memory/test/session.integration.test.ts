import type { TestKernel } from '@nodwyn/testing';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { content, failure, removeTemps, startMemoryKernel, tempDir, writeTree } from './fixtures.js';

let running: TestKernel | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  removeTemps();
});

describe('search_session and recall', () => {
  it('finds events of this session by words, with seq, type and a snippet, and recall returns the event as logged', async () => {
    running = await startMemoryKernel();
    const kernel = running;
    writeTree(kernel.workspace, { 'notes.md': 'the migration plan uses a zebra-crossing strategy\n' });
    const session = kernel.session();
    content(await kernel.apply('read_file', { path: 'notes.md' }, { session }));
    const found = content(await kernel.apply('search_session', { query: 'zebra strategy' }, { session }));
    const match = /^seq (\d+) · tool\.completed · .*«zebra».*«strategy»/.exec(found);
    expect(match, found).not.toBeNull();
    const seq = Number(match![1]);
    const logged = kernel.events(session).find((event) => event.seq === seq)!;
    const recalled = JSON.parse(content(await kernel.apply('recall', { seq }, { session })));
    expect(recalled).toEqual({ session, seq, ts: logged.ts, type: logged.type, actor: logged.actor, payload: logged.payload });
  });

  it('keeps to the current session, and stays in step with events appended after the last search', async () => {
    running = await startMemoryKernel();
    const kernel = running;
    writeTree(kernel.workspace, { 'a.md': 'apricot\n', 'b.md': 'blueberry\n' });
    const one = kernel.session();
    const two = kernel.session();
    content(await kernel.apply('read_file', { path: 'a.md' }, { session: one }));
    content(await kernel.apply('read_file', { path: 'b.md' }, { session: two }));
    expect(content(await kernel.apply('search_session', { query: 'blueberry' }, { session: one }))).toBe('[no events hold "blueberry"]');
    content(await kernel.apply('read_file', { path: 'b.md' }, { session: one }));
    const found = content(await kernel.apply('search_session', { query: 'blueberry' }, { session: one })).split('\n');
    // The read_file result; never the first search's own answer (which named no event, but held the word).
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^seq \d+ · tool\.completed · tool\.completed ⏎ read_file ⏎ .*«blueberry»/);
  });

  it('recall of a seq the session does not have is NOT_FOUND', async () => {
    running = await startMemoryKernel();
    const session = running.session();
    expect(failure(await running.apply('recall', { seq: 999 }, { session }))).toMatchObject({ category: 'NOT_FOUND', code: 'MEMORY_EVENT_NOT_FOUND' });
  });

  it('loses nothing when its index is deleted: the next search indexes the log again', async () => {
    const dataDir = tempDir();
    const workspace = tempDir();
    writeTree(workspace, { 'a.md': 'kumquat\n' });
    const dbPath = join(tempDir(), 'log.db');
    const key = Buffer.alloc(32, 7);
    running = await startMemoryKernel({ dataDir, workspace, dbPath, key });
    const session = running.session();
    content(await running.apply('read_file', { path: 'a.md' }, { session }));
    const before = content(await running.apply('search_session', { query: 'kumquat' }, { session }));
    await running.stop();
    rmSync(join(dataDir, 'memory'), { recursive: true, force: true });
    running = await startMemoryKernel({ dataDir, workspace, dbPath, key });
    // The first search is an event now too; what it found is found again, unchanged.
    expect(content(await running.apply('search_session', { query: 'kumquat' }, { session })).split('\n')).toContain(before);
  });
});

describe('search_history', () => {
  it('is refused without the person\'s leave, saying how to give it', async () => {
    running = await startMemoryKernel();
    const envelope = failure(await running.apply('search_history', { query: 'anything' }, { session: running.session() }));
    expect(envelope).toMatchObject({ category: 'PERMISSION_DENIED', code: 'MEMORY_CROSS_SESSION_DISABLED' });
    expect(envelope.remediation).toContain('cross_session = true');
  });

  it('with leave, finds events of the project\'s earlier sessions, naming session and seq, never the current one', async () => {
    running = await startMemoryKernel({ settings: { memory: { cross_session: true } } });
    const kernel = running;
    writeTree(kernel.workspace, { 'a.md': 'pomegranate\n' });
    const earlier = kernel.session();
    content(await kernel.apply('read_file', { path: 'a.md' }, { session: earlier }));
    const now = kernel.session();
    content(await kernel.apply('read_file', { path: 'a.md' }, { session: now }));
    const found = content(await kernel.apply('search_history', { query: 'pomegranate' }, { session: now }));
    expect(found).toMatch(new RegExp(`^session ${earlier} seq \\d+ · tool\\.completed · .*«pomegranate»`));
    expect(found).not.toContain(now);
  });
});
