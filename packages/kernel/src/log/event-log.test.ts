import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { GENESIS_HASH, LogEventSchema, type LogEvent } from '@nodwyn/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type TempLog, draft, envelopeOf, tempLog } from '../../test/log/helpers.js';
import { hashEvent } from './event-hash.js';
import { EventLog, type AppendDraft } from './index.js';

const memory = (): EventLog => EventLog.open({ path: ':memory:' });

describe('EventLog append, read, head', () => {
  let log: EventLog;
  beforeEach(() => {
    log = memory();
  });
  afterEach(() => log.close());

  it('numbers events from 1, chains them from the genesis hash and returns them as stored', () => {
    const first = log.append('s', draft(1));
    const second = log.append('s', draft(2));
    expect(first).toMatchObject({ session: 's', seq: 1, prev: GENESIS_HASH, type: 'message.user', actor: 'user', payload: { text: 'message 1', n: 1 } });
    expect(second.seq).toBe(2);
    expect(second.prev).toBe(first.hash);
    expect(first.hash).toBe(hashEvent(first));
    expect(LogEventSchema.parse(second)).toEqual(second);
    expect(new Date(first.ts).toISOString()).toBe(first.ts);
    expect(log.read('s')).toEqual([first, second]);
  });

  it('reads inclusive seq ranges in seq order', () => {
    log.appendBatch('s', [1, 2, 3, 4, 5].map((n) => draft(n)));
    expect(log.read('s', 2, 4).map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(log.read('s', 4).map((e) => e.seq)).toEqual([4, 5]);
    expect(log.read('s', 6)).toEqual([]);
    expect(log.read('missing')).toEqual([]);
    expect(envelopeOf(() => log.read('s', 1.5)).code).toBe('LOG_RANGE_INVALID');
  });

  it('reads only the events of given types, and finds the seq of the newest one from the head', () => {
    const typed = (type: string): AppendDraft => ({ type, actor: 'kernel', payload: {} });
    log.appendBatch('s', ['turn.started', 'note.added', 'turn.ended', 'turn.started', 'note.added'].map(typed));
    log.append('t', typed('turn.ended'));
    expect(log.readTypes('s', ['turn.started', 'turn.ended']).map((e) => [e.seq, e.type])).toEqual([[1, 'turn.started'], [3, 'turn.ended'], [4, 'turn.started']]);
    expect(log.readTypes('s', ['turn.ended'], 1, 2)).toEqual([]);
    expect(log.readTypes('s', ['turn.started'])[1]).toEqual(log.read('s', 4, 4)[0]);
    expect(log.lastSeqOf('s', ['turn.started', 'turn.ended'])).toBe(4);
    expect(log.lastSeqOf('s', ['turn.ended'])).toBe(3);
    expect(log.lastSeqOf('s', ['plan.approved'])).toBeUndefined();
    expect(log.lastSeqOf('missing', ['turn.started'])).toBeUndefined();
    expect(log.sessionsEndingIn('turn.started', ['turn.started', 'turn.ended'])).toEqual(['s']);
    expect(log.sessionsEndingIn('turn.ended', ['turn.started', 'turn.ended'])).toEqual(['t']);
  });

  it('reports the head, or undefined for an unknown session', () => {
    expect(log.head('s')).toBeUndefined();
    const events = log.appendBatch('s', [draft(1), draft(2)]);
    expect(log.head('s')).toEqual({ seq: 2, hash: events[1]?.hash });
  });

  it('keeps sessions isolated: each has its own seq and chain', () => {
    const a1 = log.append('a', draft(1));
    const b1 = log.append('b', draft(1));
    const a2 = log.append('a', draft(2));
    expect([a1.seq, b1.seq, a2.seq]).toEqual([1, 1, 2]);
    expect(b1.prev).toBe(GENESIS_HASH);
    expect(a2.prev).toBe(a1.hash);
    expect(log.read('b')).toEqual([b1]);
    expect(log.verify()).toEqual({ ok: true, sessions: 2, events: 3 });
  });

  it('stores the payload as JSON would: undefined properties are omitted, -0 becomes 0', () => {
    const event = log.append('s', { type: 'message.user', actor: 'user', payload: { text: 'x', title: undefined, z: -0 } });
    expect(event.payload).toEqual({ text: 'x', z: 0 });
    expect(Object.keys(event.payload)).toEqual(['text', 'z']);
    expect(log.read('s')[0]).toEqual(event);
  });

  it('returns a copy: mutating the draft after appending changes nothing stored', () => {
    const payload = { items: [1, 2] };
    const event = log.append('s', { type: 'message.user', actor: 'user', payload });
    payload.items.push(3);
    expect(event.payload).toEqual({ items: [1, 2] });
    expect(log.verify().ok).toBe(true);
  });

  it('takes timestamps from the injected clock', () => {
    const fixed = EventLog.open({ path: ':memory:', clock: () => new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 6)) });
    expect(fixed.append('s', draft(1)).ts).toBe('2030-01-02T03:04:05.006Z');
    fixed.close();
  });
});

describe('EventLog batches and draft validation', () => {
  let log: EventLog;
  beforeEach(() => {
    log = memory();
  });
  afterEach(() => log.close());

  it('appends a batch with contiguous seqs in one chain', () => {
    log.append('s', draft(0));
    const batch = log.appendBatch('s', [draft(1), draft(2), draft(3)]);
    expect(batch.map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(batch[1]?.prev).toBe(batch[0]?.hash);
    expect(log.appendBatch('s', [])).toEqual([]);
    expect(log.verify()).toEqual({ ok: true, sessions: 1, events: 4 });
  });

  it('writes nothing when one draft of a batch is invalid, and names it', () => {
    log.append('s', draft(0));
    const bad: AppendDraft[] = [draft(1), { type: 'message.user', actor: 'user', payload: { n: Number.NaN } }, draft(3)];
    const env = envelopeOf(() => log.appendBatch('s', bad));
    expect(env).toMatchObject({ category: 'VALIDATION_FAILED', code: 'LOG_DRAFT_INVALID', failed_parameter: '$[1].payload.n' });
    expect(log.read('s').map((e) => e.seq)).toEqual([1]);
    expect(log.append('s', draft(4)).seq).toBe(2);
  });

  it.each<[string, unknown, string]>([
    ['a type that is not dotted', { type: 'created', actor: 'user', payload: {} }, '$.type'],
    ['an upper-case type', { type: 'Session.Created', actor: 'user', payload: {} }, '$.type'],
    ['an unknown actor', { type: 'message.user', actor: 'somebody', payload: {} }, '$.actor'],
    ['an array payload', { type: 'message.user', actor: 'user', payload: [] }, '$.payload'],
    ['a class-instance payload', { type: 'message.user', actor: 'user', payload: new Map() }, '$.payload'],
    ['a function in the payload', { type: 'message.user', actor: 'user', payload: { f: () => 1 } }, '$.payload.f'],
    ['Infinity in the payload', { type: 'message.user', actor: 'user', payload: { a: { b: [Number.POSITIVE_INFINITY] } } }, '$.payload.a.b[0]'],
    ['undefined in an array', { type: 'message.user', actor: 'user', payload: { a: [undefined] } }, '$.payload.a[0]'],
    ['a symbol', { type: 'message.user', actor: 'user', payload: { s: Symbol('x') } }, '$.payload.s'],
    ['a missing payload', { type: 'message.user', actor: 'user' }, '$.payload'],
  ])('refuses %s with LOG_DRAFT_INVALID', (_label, bad, parameter) => {
    const env = envelopeOf(() => log.append('s', bad as AppendDraft));
    expect(env).toMatchObject({ category: 'VALIDATION_FAILED', code: 'LOG_DRAFT_INVALID', failed_parameter: parameter });
    expect(log.head('s')).toBeUndefined();
  });

  it('refuses a payload with a cycle', () => {
    const payload: Record<string, unknown> = {};
    payload.me = payload;
    expect(envelopeOf(() => log.append('s', { type: 'message.user', actor: 'user', payload })).code).toBe('LOG_DRAFT_INVALID');
  });

  it('refuses a payload whose getter throws, with an envelope rather than the raw error', () => {
    const payload = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get: () => {
        throw new Error('getter exploded');
      },
    });
    const env = envelopeOf(() => log.append('s', { type: 'message.user', actor: 'user', payload }));
    expect(env).toMatchObject({ code: 'LOG_DRAFT_INVALID', failed_parameter: '$.payload' });
    expect(env.expected).toContain('getter exploded');
  });

  it('accepts tool and plugin actors', () => {
    expect(log.append('s', { type: 'tool.completed', actor: 'tool:read_file', payload: {} }).actor).toBe('tool:read_file');
    expect(log.append('s', { type: 'summary.added', actor: 'plugin:@nodwyn/memory', payload: {} }).seq).toBe(2);
  });

  it('refuses an empty session id', () => {
    expect(envelopeOf(() => log.append('', draft(1))).code).toBe('LOG_SESSION_INVALID');
  });
});

describe('EventLog sessions()', () => {
  it('finds every session, however many (skip-scan over the key)', () => {
    const log = memory();
    const ids = Array.from({ length: 60 }, (_, i) => `session-${(i * 7919) % 1000}`);
    for (const id of ids) log.append(id, draft(1));
    log.append(ids[0] as string, draft(2));
    expect(log.sessions().map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(log.sessions()[0]?.id).toBe(ids[0]);
    expect(log.verify()).toEqual({ ok: true, sessions: 60, events: 61 });
    log.close();
  });

  it('lists sessions with the most recently appended first, with their created payload', () => {
    const log = memory();
    log.append('a', { type: 'session.created', actor: 'kernel', payload: { workspace: '/w', title: 'A' } });
    log.append('b', draft(1));
    log.append('a', draft(2));
    const rows = log.sessions();
    expect(rows.map((r) => r.id)).toEqual(['a', 'b']);
    const [a, b] = rows;
    expect(a).toMatchObject({ events: 2, created_payload: { workspace: '/w', title: 'A' }, head: log.head('a') });
    expect(a?.created).toBe(log.read('a', 1, 1)[0]?.ts);
    expect(a?.updated).toBe(log.read('a', 2, 2)[0]?.ts);
    expect(b?.created_payload).toBeUndefined();
    log.close();
  });
});

describe('EventLog subscribe', () => {
  let log: EventLog;
  beforeEach(() => {
    log = memory();
  });
  afterEach(() => log.close());

  it('delivers committed events in seq order and stops after unsubscribe', () => {
    const seen: number[] = [];
    const unsubscribe = log.subscribe((e) => seen.push(e.seq));
    log.appendBatch('s', [draft(1), draft(2)]);
    log.append('s', draft(3));
    unsubscribe();
    log.append('s', draft(4));
    expect(seen).toEqual([1, 2, 3]);
  });

  it('calls listeners only after commit: the event is already readable', () => {
    const readable: boolean[] = [];
    log.subscribe((e) => readable.push(log.read(e.session, e.seq, e.seq).length === 1));
    log.appendBatch('s', [draft(1), draft(2)]);
    expect(readable).toEqual([true, true]);
  });

  it('delivers an event appended from inside a listener after the rest of the batch, to every listener in order', () => {
    const first: number[] = [];
    const second: number[] = [];
    log.subscribe((e) => {
      first.push(e.seq);
      if (e.seq === 1) log.append('s', draft(99));
    });
    // Subscribed after the appending listener: it must not see seq 3 (or 2) before seq 1.
    log.subscribe((e) => second.push(e.seq));
    log.appendBatch('s', [draft(1), draft(2)]);
    expect(first).toEqual([1, 2, 3]);
    expect(second).toEqual([1, 2, 3]);
  });

  it('keeps appending when a listener throws, tells onListenerError, and still calls the others', () => {
    const errors: unknown[] = [];
    const reporting = EventLog.open({ path: ':memory:', onListenerError: (error, event) => errors.push([String(error), event.seq]) });
    const seen: number[] = [];
    reporting.subscribe(() => {
      throw new Error('listener broke');
    });
    reporting.subscribe((e) => seen.push(e.seq));
    expect(reporting.append('s', draft(1)).seq).toBe(1);
    expect(seen).toEqual([1]);
    expect(errors).toEqual([['Error: listener broke', 1]]);
    reporting.close();
  });

  it('reports a throwing listener on console.error by default, not silently', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      log.subscribe(() => {
        throw new Error('listener broke');
      });
      log.append('s', draft(1));
      log.append('s', draft(2));
      expect(spy).toHaveBeenCalledTimes(1);
      expect(String(spy.mock.calls[0]?.[0])).toContain('listener broke');
    } finally {
      spy.mockRestore();
    }
  });

  it('never calls a listener for a rolled-back append', () => {
    const t = tempLog();
    try {
      const fileLog = t.open();
      const seen: LogEvent[] = [];
      fileLog.subscribe((e) => seen.push(e));
      const raw = new Database(t.file);
      // Make the checkpoint insert fail after the events were inserted in the same transaction.
      raw.exec("CREATE TRIGGER fail_checkpoint BEFORE INSERT ON checkpoints BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
      expect(envelopeOf(() => fileLog.appendBatch('s', [draft(1), draft(2)])).category).toBe('INTERNAL');
      expect(fileLog.read('s')).toEqual([]);
      expect(seen).toEqual([]);
      raw.exec('DROP TRIGGER fail_checkpoint');
      raw.close();
      expect(fileLog.append('s', draft(3)).seq).toBe(1);
      expect(seen.map((e) => e.seq)).toEqual([1]);
      fileLog.close();
    } finally {
      t.cleanup();
    }
  });
});

describe('EventLog on a file', () => {
  let t: TempLog;
  beforeEach(() => {
    t = tempLog();
  });
  afterEach(() => t.cleanup());

  it('persists across close and reopen, and verifies clean', () => {
    const log = t.open();
    const written = log.appendBatch('s', [draft(1), draft(2)]);
    log.close();
    const again = t.open();
    expect(again.recovery).toEqual([]);
    expect(again.read('s')).toEqual(written);
    expect(again.append('s', draft(3)).prev).toBe(written[1]?.hash);
    expect(again.verify()).toEqual({ ok: true, sessions: 1, events: 3 });
    again.close();
  });

  it('lets the database itself refuse UPDATE, DELETE and REPLACE of events and checkpoints', () => {
    const log = t.open();
    log.appendBatch('s', [draft(1), draft(2)]);
    const raw = new Database(t.file);
    const attempts = [
      "UPDATE events SET payload = '{}' WHERE seq = 1",
      'DELETE FROM events WHERE seq = 2',
      "INSERT OR REPLACE INTO events (session, seq, ts, type, actor, payload, prev, hash) VALUES ('s', 1, 't', 'a.b', 'user', '{}', 'p', 'h')",
      "INSERT INTO events (session, seq, ts, type, actor, payload, prev, hash) VALUES ('s', 1, 't', 'a.b', 'user', '{}', 'p', 'h') ON CONFLICT DO UPDATE SET payload = '{}'",
      "UPDATE checkpoints SET mac = 'x'",
      'DELETE FROM checkpoints',
      "INSERT OR REPLACE INTO checkpoints (session, seq, hash, ts, mac) VALUES ('s', 2, 'h', 't', 'm')",
    ];
    for (const sql of attempts) expect(() => raw.exec(sql), sql).toThrow(/append-only/);
    raw.close();
    expect(log.verify()).toEqual({ ok: true, sessions: 1, events: 2 });
    log.close();
  });

  it('interleaves appends from two connections into one contiguous chain (no head is cached between appends)', () => {
    const one = t.open();
    const two = t.open();
    for (let i = 0; i < 20; i++) {
      (i % 2 === 0 ? one : two).append('s', draft(i));
      (i % 3 === 0 ? two : one).appendBatch('s', [draft(i), draft(i)]);
    }
    expect(one.read('s').map((e) => e.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(two.verify()).toEqual({ ok: true, sessions: 1, events: 60 });
    one.close();
    two.close();
  });

  it('fails with LOG_BUSY (retryable) when another process holds the write lock past the timeout, writing nothing', () => {
    const log = EventLog.open({ path: t.file, keyPath: t.keyPath, busyTimeoutMs: 50 });
    const seen: LogEvent[] = [];
    log.subscribe((e) => seen.push(e));
    const holder = new Database(t.file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      expect(envelopeOf(() => log.append('s', draft(1)))).toMatchObject({ category: 'TIMEOUT', code: 'LOG_BUSY', retryable: 'after_delay' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(seen).toEqual([]);
    expect(log.append('s', draft(1)).seq).toBe(1);
    log.close();
  });

  it('refuses options it cannot use', () => {
    expect(envelopeOf(() => EventLog.open({ path: '' })).code).toBe('LOG_OPTIONS_INVALID');
    expect(envelopeOf(() => EventLog.open({ path: ':memory:', busyTimeoutMs: -1 })).failed_parameter).toBe('busyTimeoutMs');
  });

  it('fails with LOG_CLOSED after close, and close twice is harmless', () => {
    const log = t.open();
    log.close();
    log.close();
    expect(envelopeOf(() => log.append('s', draft(1))).code).toBe('LOG_CLOSED');
    expect(envelopeOf(() => log.read('s')).code).toBe('LOG_CLOSED');
  });

  it('refuses to open with another key once sessions were signed, instead of calling them all forged', () => {
    const log = t.open();
    log.appendBatch('s', [draft(1), draft(2)]);
    log.appendBatch('other', [draft(1)]);
    log.close();
    const env = envelopeOf(() => EventLog.open({ path: t.file, key: randomBytes(32) }));
    expect(env).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'LOG_KEY_MISMATCH' });
    expect(env.remediation).toContain('2 session(s)');
    const again = t.open();
    expect(again.read('s')).toHaveLength(2);
    again.close();
  });
});
