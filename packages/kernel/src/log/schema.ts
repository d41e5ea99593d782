import Database from 'better-sqlite3';
import { EnvelopeError } from '@nodwyn/plugin-api';
import { LogCodes, toLogError } from './errors.js';

/** A better-sqlite3 connection. */
export type SqliteDatabase = Database.Database;

/** `PRAGMA application_id` of a nodwyn log ("nodw"): tells our file from any other SQLite file. */
export const LOG_APPLICATION_ID = 0x6e6f6477;
/** `PRAGMA user_version`: the schema this code writes. */
export const LOG_SCHEMA_VERSION = 1;
/** How long an append waits by default for another process's write lock before failing with `LOG_BUSY`. */
export const LOG_BUSY_TIMEOUT_MS = 5000;

// STRICT tables so a stray write cannot store a number where text belongs. Checkpoint rows are small,
// so that table is clustered on its key (WITHOUT ROWID): one b-tree to write per append, not two. The triggers make the
// append-only rule the database's, not only this code's: any UPDATE or DELETE aborts, whoever issues it.
// The `no_replace` triggers close the side door: `INSERT OR REPLACE` deletes the old row without firing
// DELETE triggers (unless a connection sets recursive_triggers), so an insert over an existing key aborts.
// `session_index` numbers every session as it starts, each entry signed, and `log_meta` holds the signed count
// and the key's id (see session-index.ts, key-binding.ts): what lets `verify` see a whole session deleted.
// `plugin_store` is the plugins' own state (PluginStore), mutable, in the same file so a plugin's writes and its
// events commit in one transaction.
// `events_by_type` finds a session's newest event of a type in one seek (its title, its last turn, its
// last compaction), so what a resume looks up costs the same on a session of ten events or a million;
// a log written before it existed gets it when first opened.
// `IF NOT EXISTS` everywhere, so opening also restores a trigger or table someone dropped.
const DDL = `
CREATE TABLE IF NOT EXISTS events (
  session TEXT NOT NULL,
  seq INTEGER NOT NULL CHECK (seq >= 1),
  ts TEXT NOT NULL,
  type TEXT NOT NULL,
  actor TEXT NOT NULL,
  payload TEXT NOT NULL,
  prev TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (session, seq)
) STRICT;
CREATE INDEX IF NOT EXISTS events_by_type ON events (session, type, seq);
CREATE TABLE IF NOT EXISTS checkpoints (
  session TEXT NOT NULL,
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL,
  ts TEXT NOT NULL,
  mac TEXT NOT NULL,
  PRIMARY KEY (session, seq)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS plugin_store (
  plugin TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (plugin, key)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS session_index (
  ordinal INTEGER PRIMARY KEY CHECK (ordinal >= 1),
  session TEXT NOT NULL UNIQUE,
  mac TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS log_meta (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS session_index_no_update BEFORE UPDATE ON session_index
  BEGIN SELECT RAISE(ABORT, 'nodwyn log: the session index is append-only'); END;
CREATE TRIGGER IF NOT EXISTS session_index_no_delete BEFORE DELETE ON session_index
  BEGIN SELECT RAISE(ABORT, 'nodwyn log: the session index is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
  BEGIN SELECT RAISE(ABORT, 'nodwyn log: events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
  BEGIN SELECT RAISE(ABORT, 'nodwyn log: events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_replace BEFORE INSERT ON events
  WHEN EXISTS (SELECT 1 FROM events WHERE session = NEW.session AND seq = NEW.seq)
  BEGIN SELECT RAISE(ABORT, 'nodwyn log: events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS checkpoints_no_update BEFORE UPDATE ON checkpoints
  BEGIN SELECT RAISE(ABORT, 'nodwyn log: checkpoints are append-only'); END;
CREATE TRIGGER IF NOT EXISTS checkpoints_no_delete BEFORE DELETE ON checkpoints
  BEGIN SELECT RAISE(ABORT, 'nodwyn log: checkpoints are append-only'); END;
CREATE TRIGGER IF NOT EXISTS checkpoints_no_replace BEFORE INSERT ON checkpoints
  WHEN EXISTS (SELECT 1 FROM checkpoints WHERE session = NEW.session AND seq = NEW.seq)
  BEGIN SELECT RAISE(ABORT, 'nodwyn log: checkpoints are append-only'); END;
`;

/**
 * Opens (or creates) a log database and makes sure it is one. Every failure is an envelope: a missing
 * folder or no permission is `LOG_OPEN_FAILED`, random bytes are `LOG_DB_CORRUPT`, another program's
 * SQLite file is `LOG_NOT_A_LOG`.
 */
export function openLogDatabase(file: string, busyTimeoutMs = LOG_BUSY_TIMEOUT_MS): SqliteDatabase {
  let db: SqliteDatabase | undefined;
  try {
    // better-sqlite3's `timeout` is SQLite's busy_timeout: how long to wait on another connection's lock.
    db = new Database(file, { timeout: busyTimeoutMs });
    // Identify the file before changing anything, so another program's database is left as it was.
    checkIdentity(db, file);
    configure(db);
    db.transaction(() => ensureSchema(db as SqliteDatabase, file)).immediate();
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof TypeError) throw openFailed(file, error);
    throw toLogError(error, 'log.open', file);
  }
}

/**
 * WAL: a commit is one append to the write-ahead file, and a crash mid-transaction leaves a WAL tail
 * that replay ignores, so an append is all or nothing. `synchronous=NORMAL` skips the fsync per commit:
 * a killed process loses nothing that committed (the WAL is already in the OS page cache), only a power
 * loss or kernel crash can drop the last commits, and even then the database stays consistent. That is
 * the threat we guard against (a killed or crashed agent), at a fraction of FULL's cost per append.
 */
function configure(db: SqliteDatabase): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
}

/** Throws unless the file is empty or a nodwyn log. Reading the header is also what exposes random bytes. */
function checkIdentity(db: SqliteDatabase, file: string): boolean {
  const appId = db.pragma('application_id', { simple: true }) as number;
  if (appId === LOG_APPLICATION_ID) return true;
  if (appId !== 0) throw notALog(file, `its application id is 0x${appId.toString(16)}`);
  const objects = db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number;
  if (objects > 0) throw notALog(file, 'it has tables but no nodwyn application id');
  return false;
}

// Runs inside BEGIN IMMEDIATE, so two processes creating the same new log do it one after the other.
function ensureSchema(db: SqliteDatabase, file: string): void {
  if (!checkIdentity(db, file)) {
    db.pragma(`application_id = ${LOG_APPLICATION_ID}`);
    db.pragma(`user_version = ${LOG_SCHEMA_VERSION}`);
  }
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > LOG_SCHEMA_VERSION) {
    throw new EnvelopeError({
      category: 'PRECONDITION_FAILED',
      code: LogCodes.LOG_SCHEMA_UNSUPPORTED,
      operation: 'log.open',
      received_value: version,
      expected: `schema version ${LOG_SCHEMA_VERSION} or lower`,
      remediation: `The log ${file} was written by a newer nodwyn. Upgrade nodwyn to open it.`,
    });
  }
  db.exec(DDL);
}

function notALog(file: string, why: string): EnvelopeError {
  return new EnvelopeError({
    category: 'PRECONDITION_FAILED',
    code: LogCodes.LOG_NOT_A_LOG,
    operation: 'log.open',
    received_value: file,
    remediation: `${file} is a SQLite database but not a nodwyn log (${why}). Point nodwyn at another file; this one was left untouched.`,
  });
}

function openFailed(file: string, error: TypeError): EnvelopeError {
  return new EnvelopeError(
    {
      category: 'PRECONDITION_FAILED',
      code: LogCodes.LOG_OPEN_FAILED,
      operation: 'log.open',
      received_value: error.message,
      remediation: `The log ${file} cannot be opened: ${error.message}. Create its folder or pass another path.`,
    },
    { cause: error },
  );
}
