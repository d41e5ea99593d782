import type { AppendDraft } from '../log/index.js';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Kernel } from '../kernel.js';
import { SessionWindow } from './session-window.js';
import { WindowCache } from './window-cache.js';
import { fitWindow, messagesFromEvents } from './window.js';

const open: Kernel[] = [];
afterEach(() => {
  for (const k of open.splice(0)) k.close();
});

function kernel(): Kernel {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-window-')));
  const k = Kernel.open({ dbPath: join(dir, 'log.db'), key: randomBytes(32), workspace: dir });
  open.push(k);
  return k;
}

/** `exchanges` prompts, each answered by `steps` calls with results of `size` characters, then an answer. */
function history(exchanges: number, steps: number, size: number): AppendDraft[] {
  const drafts: AppendDraft[] = [];
  for (let x = 0; x < exchanges; x++) {
    drafts.push({ type: 'message.user', actor: 'user', payload: { text: `ask ${x}` } });
    drafts.push({ type: 'turn.started', actor: 'kernel', payload: {} });
    for (let s = 0; s < steps; s++) {
      const id = `c${x}-${s}`;
      drafts.push({ type: 'message.assistant', actor: 'model', payload: { text: '', tool_calls: [{ id, name: 'echo', args: { s } }] } });
      drafts.push({ type: 'tool.completed', actor: 'kernel', payload: { call_id: id, name: 'echo', origin: 'model', content: `${id} ${'r'.repeat(size)}` } });
    }
    drafts.push({ type: 'message.assistant', actor: 'model', payload: { text: `answer ${x}`, tool_calls: [] } });
    drafts.push({ type: 'turn.ended', actor: 'kernel', payload: { reason: 'answer' } });
  }
  return drafts;
}

const budget = (windowTokens: number) => ({ windowTokens, answerTokens: 0 });

describe('SessionWindow', () => {
  it('builds from the end what the whole-lineage fit builds, with the first ask pinned, reading only about the window', () => {
    const k = kernel();
    const session = k.sessions.create({ workspace: k.workspace });
    k.log.appendBatch(session, history(200, 5, 400));
    const whole = fitWindow(messagesFromEvents(k.sessions.lineage(session)), 5_000);
    const read = vi.spyOn(k.log, 'read');
    const window = SessionWindow.open(k.log, session, budget(5_000));
    const rows = read.mock.results.reduce((sum, r) => sum + (r.value as unknown[]).length, 0);
    const messages = window.messages();
    expect(messages[0]).toEqual({ role: 'user', text: 'ask 0' });
    expect(messages.slice(1)).toEqual(whole);
    expect(rows).toBeLessThan(600);
  });

  it('is extended by the events a turn appends to the same messages a rebuild gives', () => {
    const k = kernel();
    const session = k.sessions.create({ workspace: k.workspace });
    k.log.appendBatch(session, history(3, 2, 100));
    const window = SessionWindow.open(k.log, session, budget(100_000));
    const unsubscribe = k.log.subscribe((e) => window.push(e));
    for (const draft of history(2, 3, 100)) k.append(session, draft);
    k.append(session, { type: 'message.assistant', actor: 'model', payload: { text: '', tool_calls: [{ id: 'open', name: 'echo', args: {} }] } });
    unsubscribe();
    const rebuilt = SessionWindow.open(k.log, session, budget(100_000)).messages();
    expect(window.messages()).toEqual(rebuilt);
    expect(rebuilt.at(-1)).toMatchObject({ role: 'tool', callId: 'open', isError: true });
  });

  it('shows a summary in place of its span, and the span again once the summary is revoked', () => {
    const k = kernel();
    const session = k.sessions.create({ workspace: k.workspace });
    k.log.appendBatch(session, history(1, 10, 100));
    // seq 4..23 are the ten steps (assistant call, tool result) of the one exchange.
    const added = k.append(session, { type: 'summary.added', actor: 'model', payload: { from_seq: 4, to_seq: 13, text: 'read five files', model: 'm', tokens: 4 } });
    const window = SessionWindow.open(k.log, session, budget(100_000));
    const kinds = window.view().entries.map((e) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['user', 'summary', 'assistant']);
    expect(window.view().entries[1]).toMatchObject({ fromSeq: 4, toSeq: 13, message: { text: expect.stringContaining('read five files') } });
    expect(window.view().entries).toHaveLength(1 + 1 + 10 + 1);

    const unsubscribe = k.log.subscribe((e) => window.push(e));
    k.append(session, { type: 'summary.revoked', actor: 'user', payload: { seq: added.seq } });
    unsubscribe();
    expect(window.messages()).toEqual(messagesFromEvents(k.sessions.lineage(session)));
  });

  it('a fork begins with its parent\'s window up to the fork point, summaries included', () => {
    const k = kernel();
    const parent = k.sessions.create({ workspace: k.workspace });
    k.log.appendBatch(parent, history(2, 3, 100));
    k.append(parent, { type: 'summary.added', actor: 'model', payload: { from_seq: 4, to_seq: 9, text: 'earlier', model: 'm', tokens: 2 } });
    const at = k.log.head(parent)!.seq;
    k.log.appendBatch(parent, history(1, 1, 100).map((d) => ({ ...d, payload: { ...d.payload, text: 'after the fork' } })));
    const fork = k.sessions.fork(parent, at);
    k.log.appendBatch(fork, history(1, 1, 10));
    const view = SessionWindow.open(k.log, fork, budget(100_000)).view();
    expect(view.entries.map((e) => e.session)).toContain(parent);
    expect(view.entries.some((e) => e.kind === 'summary' && e.session === parent)).toBe(true);
    expect(view.entries.some((e) => e.message.text === 'after the fork')).toBe(false);
  });
});

describe('WindowCache', () => {
  it('keeps a session\'s window between turns and catches up with events it did not see appended', () => {
    const k = kernel();
    const session = k.sessions.create({ workspace: k.workspace });
    k.log.appendBatch(session, history(3, 2, 100));
    const cache = new WindowCache(k.log);
    const first = cache.get(session, budget(100_000));
    // Another process appends straight to the log file: the kept window has not seen these.
    k.log.appendBatch(session, history(1, 2, 100));
    const read = vi.spyOn(k.log, 'read');
    const again = cache.get(session, budget(100_000));
    expect(again).toBe(first);
    expect(read.mock.calls).toEqual([[session, first.head - 8 + 1]]);
    expect(again.messages()).toEqual(SessionWindow.open(k.log, session, budget(100_000)).messages());
    expect(cache.get(session, budget(50_000))).not.toBe(first);
  });
});
