import { createHmac } from 'node:crypto';
import { EnvelopeError } from '@nodwyn/plugin-api';
import { checkpointSignedAs, checkpointValid } from './checkpoint.js';
import { LogCodes } from './errors.js';
import type { SqliteDatabase } from './schema.js';
import type { SessionIndex } from './session-index.js';
import type { CheckpointRow } from './statements.js';

const KEY_ID_ROW = 'key_id';
const KEY_ID_DOMAIN = 'nodwyn.log.key-id.v1';

/** A keyed id of the log key: names which key signed a log without revealing anything about it. */
export function keyId(key: Buffer): string {
  return createHmac('sha256', key).update(KEY_ID_DOMAIN, 'utf8').digest('hex');
}

/**
 * How many sessions the log holds signed (0 for a new or empty log). Counted three ways and the most
 * taken, so deleting the checkpoints alone does not make a log look new enough to take another key.
 */
export function signedSessions(db: SqliteDatabase): number {
  const sql = `SELECT max((SELECT count(DISTINCT session) FROM checkpoints), (SELECT count(*) FROM session_index),
    (SELECT count(*) FROM events WHERE seq = 1))`;
  return db.prepare<[], number>(sql).pluck().get() ?? 0;
}

/**
 * Ties the database to its key, in one IMMEDIATE transaction on open. A new log records the key's id
 * and starts its session index. A log signed by another key is refused, since appending to it would mix
 * two keys and verify would call every old session forged. A log made before the index existed (v1
 * checkpoints only, no key id) gets its index started from the sessions it has; one whose key id is gone
 * but which holds v2 checkpoints had its index deleted, which `verify` then reports, so nothing is adopted.
 */
export function bindKey(db: SqliteDatabase, key: Buffer, index: SessionIndex, where: { file: string; keyName: string }): void {
  db.transaction(() => {
    const meta = db.prepare<[string], string>('SELECT value FROM log_meta WHERE name = ?').pluck();
    const stored = meta.get(KEY_ID_ROW);
    const id = keyId(key);
    if (stored === id) return;
    const signed = signedSessions(db);
    if (signed > 0) {
      const checkpoints = db.prepare<[], CheckpointRow>('SELECT session, seq, hash, mac FROM checkpoints WHERE (session, seq) IN (SELECT session, MAX(seq) FROM checkpoints GROUP BY session)').all();
      if (stored !== undefined || !checkpoints.some((cp) => checkpointValid(key, cp))) throw keyMismatch(where, signed);
      if (!checkpoints.some((cp) => checkpointSignedAs(key, cp, false))) index.adopt(sessionsInOrder(db));
    } else {
      index.restart();
    }
    db.prepare('INSERT INTO log_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value').run(KEY_ID_ROW, id);
  }).immediate();
}

// Sessions of an older log in the order they started (the rowid of their first event).
function sessionsInOrder(db: SqliteDatabase): string[] {
  return db.prepare<[], string>('SELECT session FROM events WHERE seq = 1 ORDER BY rowid').pluck().all();
}

function keyMismatch(where: { file: string; keyName: string }, signed: number): EnvelopeError {
  return new EnvelopeError({
    category: 'PRECONDITION_FAILED',
    code: LogCodes.LOG_KEY_MISMATCH,
    operation: 'log.open',
    failed_parameter: 'keyPath',
    received_value: where.keyName,
    remediation: `The log key ${where.keyName} is not the one that signed the log ${where.file} (${signed} session(s)); with it every one of them would look forged. Put the right key file back (from your backup). If that key is lost, move ${where.file} aside (it stays readable with sqlite3 but can no longer be verified) and nodwyn starts a new log.`,
  });
}

/** The refusal when the key file is gone but the log holds sessions signed with it. */
export function keyMissing(where: { file: string; keyName: string }, signed: number): EnvelopeError {
  return new EnvelopeError({
    category: 'PRECONDITION_FAILED',
    code: LogCodes.LOG_KEY_MISSING,
    operation: 'log.open',
    failed_parameter: 'keyPath',
    received_value: where.keyName,
    remediation: `The log key ${where.keyName} is gone, but ${signed} session(s) in ${where.file} were signed with it; a new key would make every one of them look forged, so none was made. Restore ${where.keyName} from your backup. If it is lost for good, move ${where.file} aside (it stays readable with sqlite3 but can no longer be verified) and nodwyn starts a new log with a new key.`,
  });
}
