import * as fs from 'node:fs';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointMac, hashEvent, type EventLog, type VerifyReport } from '../../src/log/index.js';
import { draft, envelopeOf, rawTamperHandle, tempLog, type TempLog } from './helpers.js';

function failure(report: VerifyReport): { session: string; seq: number; problem: string } {
  if (report.ok) throw new Error('verify passed, but the log was tampered with');
  return { session: report.session, seq: report.seq, problem: report.problem };
}

describe('the stored bytes are what is verified', () => {
  let t: TempLog;
  beforeEach(() => {
    t = tempLog('nodwyn-integrity-');
    const log = t.open();
    log.append('s', { type: 'tool.requested', actor: 'model', payload: { path: 'b' } });
    log.append('s', draft(2));
    log.close();
  });
  afterEach(() => t.cleanup());

  it('a payload respelled with a duplicate key (same JSON.parse result, same hash) is reported by verify and refused on read', () => {
    const raw = rawTamperHandle(t.file);
    // JSON.parse keeps the last "path" (b, so the hash still matches); SQL's json_extract reads the first (a).
    raw.prepare(`UPDATE events SET payload = '{"path":"a","path":"b"}' WHERE session = 's' AND seq = 1`).run();
    expect(raw.prepare(`SELECT json_extract(payload, '$.path') FROM events WHERE session = 's' AND seq = 1`).pluck().get()).toBe('a');
    raw.close();
    const log = t.open();
    try {
      expect(failure(log.verify())).toEqual({ session: 's', seq: 1, problem: 'malformed' });
      expect(envelopeOf(() => log.read('s')).code).toBe('LOG_EVENT_MALFORMED');
    } finally {
      log.close();
    }
  });
});

describe('reading checks the canonical form cheaply, without false alarms', () => {
  it('reads integer-like keys (which JavaScript reorders) and refuses reordered or spaced text', () => {
    const t = tempLog('nodwyn-canonical-');
    try {
      const log = t.open();
      log.append('s', { type: 'tool.completed', actor: 'tool:x', payload: { '10': 'a', '9': 'b', z: { '2': 1, '10': [{ b: 1, a: 2 }] } } });
      log.append('s', draft(2));
      log.append('s', draft(3));
      log.close();
      const again = t.open();
      expect(again.read('s', 1, 1)[0]?.payload).toEqual({ '10': 'a', '9': 'b', z: { '2': 1, '10': [{ a: 2, b: 1 }] } });
      again.close();
      const raw = rawTamperHandle(t.file);
      raw.prepare(`UPDATE events SET payload = '{"text":"message 2","n":2}' WHERE session = 's' AND seq = 2`).run();
      raw.prepare(`UPDATE events SET payload = '{"n": 3, "text": "message 3"}' WHERE session = 's' AND seq = 3`).run();
      raw.close();
      const edited = t.open();
      expect(envelopeOf(() => edited.read('s', 2, 2)).code).toBe('LOG_EVENT_MALFORMED');
      expect(envelopeOf(() => edited.read('s', 3, 3)).code).toBe('LOG_EVENT_MALFORMED');
      edited.close();
    } finally {
      t.cleanup();
    }
  });
});

describe('the signed index of sessions', () => {
  let t: TempLog;
  let raw: Database.Database;
  const verifyAll = (): VerifyReport => {
    const log: EventLog = t.open();
    try {
      return log.verify();
    } finally {
      log.close();
    }
  };

  beforeEach(() => {
    t = tempLog('nodwyn-index-');
    const log = t.open();
    for (const id of ['a', 'b', 'c']) log.appendBatch(id, [draft(1), draft(2)]);
    expect(log.verify()).toEqual({ ok: true, sessions: 3, events: 6 });
    log.close();
    raw = rawTamperHandle(t.file);
  });
  afterEach(() => {
    raw.close();
    t.cleanup();
  });

  it('names a session whose events and checkpoints were all deleted', () => {
    raw.prepare(`DELETE FROM events WHERE session = 'b'`).run();
    raw.prepare(`DELETE FROM checkpoints WHERE session = 'b'`).run();
    expect(failure(verifyAll())).toEqual({ session: 'b', seq: 0, problem: 'session_missing' });
  });

  it('sees a session deleted together with its index entry (a gap in the signed numbers)', () => {
    for (const table of ['events', 'checkpoints', 'session_index']) raw.prepare(`DELETE FROM ${table} WHERE session = 'b'`).run();
    expect(verifyAll()).toMatchObject({ ok: false, problem: 'session_missing', detail: expect.stringContaining('session number 2') as string });
  });

  it('sees the newest session deleted with its entry (the signed count no longer matches)', () => {
    for (const table of ['events', 'checkpoints', 'session_index']) raw.prepare(`DELETE FROM ${table} WHERE session = 'c'`).run();
    expect(verifyAll()).toMatchObject({ ok: false, problem: 'session_missing', detail: expect.stringContaining('counts 3 sessions but holds 2') as string });
  });

  it('sees the whole index deleted: the log has current checkpoints, so it is not taken for an old log and adopted again', () => {
    for (const table of ['events', 'checkpoints']) raw.prepare(`DELETE FROM ${table} WHERE session = 'b'`).run();
    raw.prepare('DELETE FROM session_index').run();
    raw.prepare('DELETE FROM log_meta').run();
    expect(failure(verifyAll())).toMatchObject({ problem: 'index_invalid' });
    const log = t.open();
    expect(envelopeOf(() => log.append('new', draft(1))).code).toBe('LOG_HEAD_UNVERIFIED');
    log.close();
  });

  it('names a session written into the file outside the log (it has no signed entry)', () => {
    const event = { session: 'forged', seq: 1, ts: 't', type: 'message.user', actor: 'user', payload: { text: 'hi' }, prev: '0'.repeat(64) };
    const hash = hashEvent(event);
    raw.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run('forged', 1, 't', 'message.user', 'user', '{"text":"hi"}', event.prev, hash);
    raw.prepare('INSERT INTO checkpoints VALUES (?, ?, ?, ?, ?)').run('forged', 1, hash, 't', checkpointMac(Buffer.alloc(32, 9), 'forged', 1, hash));
    expect(failure(verifyAll())).toMatchObject({ session: 'forged' });
  });

  it('verify(session) of a session deleted whole names it, and a session that never was is simply absent', () => {
    raw.prepare(`DELETE FROM events WHERE session = 'b'`).run();
    raw.prepare(`DELETE FROM checkpoints WHERE session = 'b'`).run();
    const log = t.open();
    expect(log.verify('a')).toEqual({ ok: true, sessions: 1, events: 2 });
    expect(log.verify('b')).toMatchObject({ ok: false, session: 'b', seq: 0, problem: 'session_missing', sessions: 0 });
    expect(log.verify('never')).toEqual({ ok: true, sessions: 0, events: 0 });
    expect(log.verify()).toMatchObject({ ok: false, session: 'b' });
    log.close();
  });
});

describe('a log made before the index existed', () => {
  it('is adopted on open (its v1 checkpoints prove it old), then verifies and sees a deleted session', () => {
    const t = tempLog('nodwyn-legacy-');
    try {
      const log = t.open();
      log.appendBatch('a', [draft(1)]);
      log.appendBatch('b', [draft(1)]);
      log.close();
      const key = fs.readFileSync(t.keyPath);
      const raw = rawTamperHandle(t.file);
      // Re-sign every checkpoint in the old form and drop what the old code did not write.
      for (const cp of raw.prepare('SELECT session, seq, hash FROM checkpoints').all() as { session: string; seq: number; hash: string }[]) {
        raw.prepare('UPDATE checkpoints SET mac = ? WHERE session = ? AND seq = ?').run(checkpointMac(key, cp.session, cp.seq, cp.hash, true), cp.session, cp.seq);
      }
      raw.prepare('DELETE FROM session_index').run();
      raw.prepare('DELETE FROM log_meta').run();
      raw.close();
      expect(t.open().verify()).toEqual({ ok: true, sessions: 2, events: 2 });
      const again = rawTamperHandle(t.file);
      for (const table of ['events', 'checkpoints']) again.prepare(`DELETE FROM ${table} WHERE session = 'a'`).run();
      again.close();
      expect(t.open().verify()).toMatchObject({ ok: false, session: 'a', problem: 'session_missing' });
    } finally {
      t.cleanup();
    }
  });
});

describe('the log key', () => {
  let t: TempLog;
  beforeEach(() => {
    t = tempLog('nodwyn-key-');
  });
  afterEach(() => t.cleanup());

  it('deleted after sessions were signed: open refuses with LOG_KEY_MISSING and makes no new key', () => {
    const log = t.open();
    log.append('s', draft(1));
    log.append('other', draft(1));
    log.close();
    fs.rmSync(t.keyPath);
    const env = envelopeOf(() => t.open());
    expect(env).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'LOG_KEY_MISSING' });
    expect(env.remediation).toMatch(/2 session\(s\).*Restore/);
    expect(fs.existsSync(t.keyPath)).toBe(false);
  });

  it('replaced by another key: open refuses with LOG_KEY_MISMATCH', () => {
    const log = t.open();
    log.append('s', draft(1));
    log.close();
    fs.writeFileSync(t.keyPath, Buffer.alloc(32, 3), { mode: 0o600 });
    expect(envelopeOf(() => t.open()).code).toBe('LOG_KEY_MISMATCH');
  });

  it('of a fresh install, or of a log with no signed session yet, is simply made', () => {
    t.open().close();
    fs.rmSync(t.keyPath);
    const log = t.open();
    expect(fs.existsSync(t.keyPath)).toBe(true);
    expect(log.append('s', draft(1)).seq).toBe(1);
    expect(log.verify()).toEqual({ ok: true, sessions: 1, events: 1 });
    log.close();
  });
});

describe('signed(session, seq)', () => {
  it('returns an event only while its chain reaches a valid checkpoint', () => {
    const t = tempLog('nodwyn-signed-');
    try {
      const log = t.open();
      log.appendBatch('s', [draft(1), draft(2), draft(3)]);
      log.append('s', draft(4));
      expect(log.signed('s', 2)?.payload).toEqual({ text: 'message 2', n: 2 });
      expect(log.signed('s', 9)).toBeUndefined();
      log.close();
      const raw = rawTamperHandle(t.file);
      // A rewrite with recomputed hashes: the chain is whole, but no longer the one the checkpoint signed.
      const row = raw.prepare(`SELECT * FROM events WHERE session = 's' AND seq = 2`).get() as { ts: string; prev: string };
      const payload = { text: 'rewritten', n: 2 };
      const hash = hashEvent({ session: 's', seq: 2, ts: row.ts, type: 'message.user', actor: 'user', payload, prev: row.prev });
      raw.prepare(`UPDATE events SET payload = ?, hash = ? WHERE session = 's' AND seq = 2`).run(JSON.stringify(payload), hash);
      raw.prepare(`UPDATE events SET prev = ? WHERE session = 's' AND seq = 3`).run(hash);
      raw.close();
      const again = t.open();
      expect(again.signed('s', 2)).toBeUndefined();
      expect(again.signed('s', 4)?.seq).toBe(4);
      again.close();
    } finally {
      t.cleanup();
    }
  });
});
