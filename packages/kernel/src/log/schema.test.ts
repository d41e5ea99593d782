import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TempLog, draft, envelopeOf, tempLog } from '../../test/log/helpers.js';
import { EventLog } from './event-log.js';
import { LOG_APPLICATION_ID } from './schema.js';

describe('opening a log file', () => {
  let t: TempLog;
  beforeEach(() => {
    t = tempLog();
  });
  afterEach(() => t.cleanup());

  it('creates the schema in WAL mode and marks the file as a nodwyn log', () => {
    t.open().close();
    const raw = new Database(t.file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('application_id', { simple: true })).toBe(LOG_APPLICATION_ID);
    const names = raw.prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'trigger') ORDER BY name").pluck().all();
    expect(names).toEqual(expect.arrayContaining(['events', 'checkpoints', 'events_no_update', 'events_no_delete', 'checkpoints_no_delete']));
    raw.close();
  });

  it('gives a log written before the type index that index when it is opened, and finds the same events through it', () => {
    const log = t.open();
    log.append('s-1', { type: 'session.created', actor: 'kernel', payload: {} });
    log.append('s-1', { type: 'session.titled', actor: 'kernel', payload: { title: 'a title' } });
    for (let i = 0; i < 50; i++) log.append('s-1', draft(i));
    log.close();
    const raw = new Database(t.file);
    raw.exec('DROP INDEX events_by_type');
    raw.close();
    const reopened = t.open();
    expect(reopened.lastSeqOf('s-1', ['session.titled'])).toBe(2);
    expect(reopened.lastSeqOf('s-1', ['session.titled', 'message.user'])).toBe(52);
    expect(reopened.lastSeqOf('s-1', ['turn.started'])).toBeUndefined();
    reopened.close();
    const check = new Database(t.file, { readonly: true });
    expect(check.prepare("SELECT sql FROM sqlite_schema WHERE name = 'events_by_type'").pluck().get()).toContain('(session, type, seq)');
    check.close();
  });

  it('turns random bytes into LOG_DB_CORRUPT, not a crash', () => {
    fs.writeFileSync(t.file, randomBytes(8192));
    const env = envelopeOf(() => t.open());
    expect(env).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'LOG_DB_CORRUPT', operation: 'log.open' });
    expect(env.remediation).toContain(t.file);
  });

  it('turns a short garbage file into LOG_DB_CORRUPT', () => {
    fs.writeFileSync(t.file, 'not a database');
    expect(envelopeOf(() => t.open()).code).toBe('LOG_DB_CORRUPT');
  });

  it("refuses another program's SQLite file and leaves it untouched", () => {
    const other = new Database(t.file);
    other.exec('CREATE TABLE notes (body TEXT)');
    other.close();
    const before = fs.readFileSync(t.file);
    expect(envelopeOf(() => t.open())).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'LOG_NOT_A_LOG' });
    expect(fs.readFileSync(t.file).equals(before)).toBe(true);
    expect(fs.existsSync(`${t.file}-wal`)).toBe(false);
  });

  it('refuses a log written with a newer schema', () => {
    t.open().close();
    const raw = new Database(t.file);
    raw.pragma('user_version = 99');
    raw.close();
    expect(envelopeOf(() => t.open()).code).toBe('LOG_SCHEMA_UNSUPPORTED');
  });

  it('fails with LOG_OPEN_FAILED when the folder does not exist', () => {
    const env = envelopeOf(() => EventLog.open({ path: path.join(t.dir, 'missing', 'log.db'), keyPath: t.keyPath }));
    expect(env).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'LOG_OPEN_FAILED' });
  });

  it('restores dropped triggers on open', () => {
    const log = t.open();
    log.append('s', draft(1));
    log.close();
    const raw = new Database(t.file);
    raw.exec('DROP TRIGGER events_no_delete');
    raw.close();
    t.open().close();
    const again = new Database(t.file);
    expect(() => again.exec('DELETE FROM events')).toThrow(/append-only/);
    again.close();
  });

  it('opens a log with a stale WAL left by a killed writer and keeps every committed event', () => {
    const log = t.open();
    log.appendBatch('s', [draft(1), draft(2), draft(3)]);
    // Copy the files while the WAL still holds the commits, as a SIGKILL would leave them.
    for (const suffix of ['', '-wal', '-shm']) fs.copyFileSync(`${t.file}${suffix}`, path.join(t.dir, `copy.db${suffix}`));
    log.close();
    const copy = EventLog.open({ path: path.join(t.dir, 'copy.db'), keyPath: t.keyPath });
    expect(copy.read('s').map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(copy.verify()).toEqual({ ok: true, sessions: 1, events: 3 });
    copy.close();
  });
});
