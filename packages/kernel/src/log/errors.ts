import { describeReceived, EnvelopeError, type EnvelopeInit } from '@nodwyn/plugin-api';

/**
 * Codes of the log's envelopes (the `code` field). The log is the kernel's bottom layer, so every way it
 * says no is listed here, next to the helper that turns a SQLite failure into one of them.
 */
export const LogCodes = {
  /** An append draft (type, actor or payload) is not a valid event. */
  LOG_DRAFT_INVALID: 'LOG_DRAFT_INVALID',
  /** A session id is not a non-empty string. */
  LOG_SESSION_INVALID: 'LOG_SESSION_INVALID',
  /** A `read` bound is not an integer. */
  LOG_RANGE_INVALID: 'LOG_RANGE_INVALID',
  /** `EventLog.open` options are inconsistent (no key for a file, both key and keyPath, …). */
  LOG_OPTIONS_INVALID: 'LOG_OPTIONS_INVALID',
  /** The checkpoint key is not 32 bytes or not a regular file. */
  LOG_KEY_INVALID: 'LOG_KEY_INVALID',
  /** The checkpoint key file is gone, but the log holds sessions signed with a key: none is made in its place. */
  LOG_KEY_MISSING: 'LOG_KEY_MISSING',
  /** The checkpoint key is not the one that signed this log's sessions. */
  LOG_KEY_MISMATCH: 'LOG_KEY_MISMATCH',
  /** The checkpoint key file is readable or writable by group or others. */
  LOG_KEY_PERMISSIONS: 'LOG_KEY_PERMISSIONS',
  /** The database file cannot be opened or written (missing folder, permissions, disk full). */
  LOG_OPEN_FAILED: 'LOG_OPEN_FAILED',
  /** The file is not a SQLite database, or SQLite found it corrupt. */
  LOG_DB_CORRUPT: 'LOG_DB_CORRUPT',
  /** The file is a SQLite database, but another program's. */
  LOG_NOT_A_LOG: 'LOG_NOT_A_LOG',
  /** The log was written by a newer nodwyn with a schema this one does not know. */
  LOG_SCHEMA_UNSUPPORTED: 'LOG_SCHEMA_UNSUPPORTED',
  /** A session's head does not match its newest signed checkpoint; appending would bless tampering. */
  LOG_HEAD_UNVERIFIED: 'LOG_HEAD_UNVERIFIED',
  /** Another process held the write lock longer than the busy timeout. */
  LOG_BUSY: 'LOG_BUSY',
  /** The log was used after `close()`. */
  LOG_CLOSED: 'LOG_CLOSED',
  /** A stored event cannot be read back (its payload is not a JSON object). */
  LOG_EVENT_MALFORMED: 'LOG_EVENT_MALFORMED',
  /** SQLite failed in a way the log does not expect. */
  LOG_SQLITE_FAILED: 'LOG_SQLITE_FAILED',
  /** Something other than SQLite failed inside the log (a bug, or a throwing clock). */
  LOG_INTERNAL: 'LOG_INTERNAL',
} as const;

/** A log envelope code. */
export type LogCode = keyof typeof LogCodes;

/** The shape of better-sqlite3's `SqliteError` that matters here. */
interface SqliteLike {
  readonly code: string;
  readonly message: string;
}

type Rule = readonly [RegExp, (file: string) => Pick<EnvelopeInit, 'category' | 'code' | 'remediation' | 'retryable'>];

// SQLite result codes the log expects, by prefix (extended codes such as SQLITE_IOERR_WRITE included).
const RULES: readonly Rule[] = [
  [
    /^SQLITE_(NOTADB|CORRUPT)/,
    (file) => ({
      category: 'PRECONDITION_FAILED',
      code: LogCodes.LOG_DB_CORRUPT,
      remediation: `The log database ${file} is not a SQLite database or is damaged. Move it aside (keep it for inspection), restore it from a backup, or start with a new file.`,
    }),
  ],
  [
    /^SQLITE_(BUSY|LOCKED)/,
    (file) => ({ category: 'TIMEOUT', code: LogCodes.LOG_BUSY, retryable: 'after_delay', remediation: `Another process kept the log ${file} locked; try again shortly.` }),
  ],
  [
    /^SQLITE_(CANTOPEN|READONLY|FULL|IOERR|PERM|AUTH)/,
    (file) => ({
      category: 'PRECONDITION_FAILED',
      code: LogCodes.LOG_OPEN_FAILED,
      remediation: `The log ${file} cannot be opened or written. Check that its folder exists, that you may write there, and that the disk is not full.`,
    }),
  ],
];

function isSqliteError(error: unknown): error is SqliteLike {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}

/**
 * Turns anything thrown inside the log into its envelope, keeping the cause. Envelope errors pass
 * through, so callers can wrap whole operations without re-wrapping their own refusals.
 */
export function toLogError(error: unknown, operation: string, file: string): EnvelopeError {
  if (error instanceof EnvelopeError) return error;
  if (!isSqliteError(error)) {
    const message = describeReceived(error instanceof Error ? error.message : error);
    const remediation = `The log failed unexpectedly: ${message}. This is a bug in the kernel's log; report it.`;
    return new EnvelopeError({ category: 'INTERNAL', code: LogCodes.LOG_INTERNAL, operation, remediation }, { cause: error });
  }
  const rule = RULES.find(([pattern]) => pattern.test(error.code));
  const init = rule?.[1](file) ?? {
    category: 'INTERNAL',
    code: LogCodes.LOG_SQLITE_FAILED,
    remediation: `SQLite failed (${error.code}) on the log ${file}. This is unexpected; report it with the message.`,
  };
  return new EnvelopeError({ ...init, operation, received_value: `${error.code}: ${error.message}` }, { cause: error });
}
