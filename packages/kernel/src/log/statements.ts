import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './schema.js';

/** An events row as stored. */
export interface EventRow {
  session: string;
  seq: number;
  ts: string;
  type: string;
  actor: string;
  payload: string;
  prev: string;
  hash: string;
}

/** A checkpoints row as stored. */
export interface CheckpointRow {
  session: string;
  seq: number;
  hash: string;
  mac: string;
}

/** A sessions() row as the query returns it, before its first payload is parsed. */
export interface SessionQueryRow {
  id: string;
  seq: number;
  hash: string;
  updated: string;
  created: string | null;
  first_type: string | null;
  first_payload: string | null;
}

// Distinct sessions of a table by skip-scan over its (session, seq) primary key: one index probe per
// session, instead of reading every row as `SELECT DISTINCT` would on a log of millions of events.
const distinctSessions = (table: string): string => `
  WITH RECURSIVE s(id) AS (
    SELECT MIN(session) FROM ${table}
    UNION ALL
    SELECT (SELECT MIN(session) FROM ${table} WHERE session > s.id) FROM s WHERE s.id IS NOT NULL
  ) SELECT id FROM s WHERE id IS NOT NULL`;

// The head row's rowid orders sessions by their last append, which stays right even if the clock jumps.
const SESSIONS_SQL = `
  WITH ids(id) AS (${distinctSessions('events')})
  SELECT ids.id AS id, h.seq AS seq, h.hash AS hash, h.ts AS updated,
         f.ts AS created, f.type AS first_type, f.payload AS first_payload
  FROM ids
  JOIN events h ON h.session = ids.id AND h.seq = (SELECT MAX(seq) FROM events WHERE session = ids.id)
  LEFT JOIN events f ON f.session = ids.id AND f.seq = 1
  ORDER BY h.rowid DESC`;

// Types are passed as one JSON array (`json_each`), so one prepared statement serves any list of them.

// One seek per type in `events_by_type` (session, type, seq): the newest event of each type given, and the
// newest of those. A type the session never had costs a seek, not a scan of its history.
const newestOfTypes = (session: string) =>
  `(SELECT MAX((SELECT MAX(seq) FROM events WHERE session = ${session} AND type = t.value)) FROM json_each(?) t)`;
const LAST_SEQ_OF_TYPES_SQL = `SELECT ${newestOfTypes('?')}`;

// The events of some types in a seq range, through \`events_by_type\` one type at a time (json_each is the
// outer loop), so a rare type costs its own events, not a scan of the session's range.
const RANGE_OF_TYPES_SQL = `
  SELECT e.session, e.seq, e.ts, e.type, e.actor, e.payload, e.prev, e.hash
  FROM json_each(?) t CROSS JOIN events e INDEXED BY events_by_type
  ON e.session = ? AND e.type = t.value AND e.seq BETWEEN ? AND ?
  ORDER BY e.seq`;

// The same probe once per session: the sessions whose newest event among some types is of one type (every
// session whose latest turn is still open, in one query).
const SESSIONS_ENDING_IN_SQL = `
  WITH ids(id) AS (${distinctSessions('events')}),
  newest(id, seq) AS (SELECT id, ${newestOfTypes('ids.id')} FROM ids)
  SELECT newest.id FROM newest JOIN events e ON e.session = newest.id AND e.seq = newest.seq WHERE e.type = ?`;

/**
 * Every statement the log runs, prepared once per connection: preparing is a large share of an append's
 * cost, and reusing statements is what lets batched appends run at tens of thousands per second.
 * There is deliberately no UPDATE or DELETE among them.
 */
export interface LogStatements {
  readonly head: Statement<[string], { seq: number; hash: string }>;
  readonly newestCheckpoint: Statement<[string], CheckpointRow>;
  readonly insertEvent: Statement<[string, number, string, string, string, string, string, string]>;
  readonly insertCheckpoint: Statement<[string, number, string, string, string]>;
  readonly range: Statement<[string, number, number, number], EventRow>;
  readonly checkpointsAfter: Statement<[string, number, number], CheckpointRow>;
  readonly checkpointFrom: Statement<[string, number], CheckpointRow>;
  readonly eventHashAt: Statement<[string, number], string>;
  readonly sessions: Statement<[], SessionQueryRow>;
  readonly sessionIds: Statement<[], string>;
  readonly checkpointSessionIds: Statement<[], string>;
  readonly rangeOfTypes: Statement<[string, string, number, number], EventRow>;
  readonly lastSeqOfTypes: Statement<[string, string], number | null>;
  readonly firstSeqOfType: Statement<[string, string], number | null>;
  readonly sessionsEndingIn: Statement<[string, string], string>;
}

/** Prepares the log's statements on `db`. */
export function prepareStatements(db: SqliteDatabase): LogStatements {
  return {
    head: db.prepare('SELECT seq, hash FROM events WHERE session = ? ORDER BY seq DESC LIMIT 1'),
    newestCheckpoint: db.prepare('SELECT session, seq, hash, mac FROM checkpoints WHERE session = ? ORDER BY seq DESC LIMIT 1'),
    insertEvent: db.prepare('INSERT INTO events (session, seq, ts, type, actor, payload, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    insertCheckpoint: db.prepare('INSERT INTO checkpoints (session, seq, hash, ts, mac) VALUES (?, ?, ?, ?, ?)'),
    range: db.prepare(
      'SELECT session, seq, ts, type, actor, payload, prev, hash FROM events WHERE session = ? AND seq BETWEEN ? AND ? ORDER BY seq LIMIT ?',
    ),
    checkpointsAfter: db.prepare('SELECT session, seq, hash, mac FROM checkpoints WHERE session = ? AND seq > ? ORDER BY seq LIMIT ?'),
    checkpointFrom: db.prepare('SELECT session, seq, hash, mac FROM checkpoints WHERE session = ? AND seq >= ? ORDER BY seq LIMIT 1'),
    // pluck(): these return the single column's value, which the type arguments state.
    eventHashAt: db.prepare<[string, number], string>('SELECT hash FROM events WHERE session = ? AND seq = ?').pluck(),
    sessions: db.prepare(SESSIONS_SQL),
    sessionIds: db.prepare<[], string>(distinctSessions('events')).pluck(),
    checkpointSessionIds: db.prepare<[], string>(distinctSessions('checkpoints')).pluck(),
    rangeOfTypes: db.prepare(RANGE_OF_TYPES_SQL),
    lastSeqOfTypes: db.prepare<[string, string], number | null>(LAST_SEQ_OF_TYPES_SQL).pluck(),
    firstSeqOfType: db.prepare<[string, string], number | null>('SELECT MIN(seq) FROM events WHERE session = ? AND type = ?').pluck(),
    sessionsEndingIn: db.prepare<[string, string], string>(SESSIONS_ENDING_IN_SQL).pluck(),
  };
}
