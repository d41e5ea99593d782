import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { EnvelopeError } from '@nodwyn/plugin-api';
import { canonicalizeChecked } from './event-hash.js';
import { LogCodes } from './errors.js';
import type { SqliteDatabase } from './schema.js';

// Versioned domain tags, apart from the checkpoints', so no MAC of one kind passes as another.
const ENTRY_DOMAIN = 'nodwyn.log.session.v1';
const COUNT_DOMAIN = 'nodwyn.log.sessions.v1';
const COUNT_ROW = 'sessions';

/** One signed entry of the index: the `ordinal`-th session the log started. */
export interface IndexEntry {
  readonly ordinal: number;
  readonly session: string;
  readonly mac: string;
}

/** What is wrong with the index, naming the session when one is known. */
export interface IndexProblem {
  readonly session: string;
  /** `session_missing`: a session the index names is gone; `index_invalid`: the index was edited, or lacks a session. */
  readonly problem: 'session_missing' | 'index_invalid';
  readonly detail: string;
}

function mac(key: Buffer, fields: readonly unknown[]): string {
  return createHmac('sha256', key).update(canonicalizeChecked(fields), 'utf8').digest('hex');
}

// Constant-time equality of a stored MAC and the expected one (byte lengths first: the stored one is any text).
function same(stored: string, expected: string): boolean {
  const x = Buffer.from(stored, 'utf8');
  const y = Buffer.from(expected, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The signed index of sessions. Checkpoints sign each session's head, but a session deleted whole (its
 * events and checkpoints) leaves nothing behind to check. So each session gets a numbered entry when it
 * starts, MAC'd with the log key, and the count of entries is signed too: a deleted entry leaves a gap
 * in the numbers, a deleted last entry a count that no longer matches, and a session without an entry
 * was added outside nodwyn. What no signature in the file can show is the whole file, or its index
 * count, put back to an earlier copy of itself (docs/security.md).
 */
export class SessionIndex {
  readonly #key: Buffer;
  readonly #entry: Statement<[string], IndexEntry>;
  readonly #entries: Statement<[], IndexEntry>;
  readonly #insert: Statement<[number, string, string]>;
  readonly #count: Statement<[string], string>;
  readonly #putCount: Statement<[string, string]>;

  constructor(db: SqliteDatabase, key: Buffer) {
    this.#key = key;
    this.#entry = db.prepare('SELECT ordinal, session, mac FROM session_index WHERE session = ?');
    this.#entries = db.prepare('SELECT ordinal, session, mac FROM session_index ORDER BY ordinal');
    this.#insert = db.prepare('INSERT INTO session_index (ordinal, session, mac) VALUES (?, ?, ?)');
    this.#count = db.prepare<[string], string>('SELECT value FROM log_meta WHERE name = ?').pluck();
    this.#putCount = db.prepare('INSERT INTO log_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
  }

  /** Enters a new session; call inside the transaction that appends its first event. */
  add(session: string): void {
    if (this.#entry.get(session)) {
      throw new EnvelopeError({
        category: 'PRECONDITION_FAILED',
        code: LogCodes.LOG_HEAD_UNVERIFIED,
        operation: 'log.append',
        failed_parameter: 'session',
        received_value: session,
        remediation: `Session ${session} is in the signed index but its events are gone: it was deleted outside nodwyn. Run \`verify\`, restore the log from a backup, or continue in a new session.`,
      });
    }
    const ordinal = this.#signedCount() + 1;
    this.#insert.run(ordinal, session, mac(this.#key, [ENTRY_DOMAIN, ordinal, session]));
    this.#putCount.run(COUNT_ROW, JSON.stringify({ count: ordinal, mac: mac(this.#key, [COUNT_DOMAIN, ordinal]) }));
  }

  /** Starts an empty index, signed with this log's key: for a log that holds no session yet. */
  restart(): void {
    this.#putCount.run(COUNT_ROW, JSON.stringify({ count: 0, mac: mac(this.#key, [COUNT_DOMAIN, 0]) }));
  }

  /** Starts the index of a log made before it existed, entering `sessions` in order. */
  adopt(sessions: readonly string[]): void {
    this.restart();
    for (const session of sessions) this.add(session);
  }

  /** The problem with one session's entry, if any; `present` says whether the log holds any of it. */
  checkOne(session: string, present: boolean): IndexProblem | undefined {
    const entry = this.#entry.get(session);
    if (!entry) return present ? { session, problem: 'index_invalid', detail: `session ${session} is not in the signed index of sessions: it was added outside nodwyn` } : undefined;
    if (!this.#validEntry(entry)) return { session, problem: 'index_invalid', detail: `the index entry of session ${session} has an invalid MAC: it was edited` };
    return present ? undefined : { session, problem: 'session_missing', detail: `session ${session} is in the signed index but has no events or checkpoints: it was deleted` };
  }

  /** Checks the whole index against the sessions found in the log; the first problem, if any. */
  checkAll(present: ReadonlySet<string>): IndexProblem | undefined {
    const entries = this.#entries.all();
    let expected = 1;
    for (const entry of entries) {
      if (entry.ordinal !== expected) return { session: entry.session, problem: 'session_missing', detail: `session number ${expected} of the signed index is gone: a session was deleted with its entry` };
      if (!this.#validEntry(entry)) return { session: entry.session, problem: 'index_invalid', detail: `the index entry of session ${entry.session} has an invalid MAC: it was edited` };
      if (!present.has(entry.session)) return { session: entry.session, problem: 'session_missing', detail: `session ${entry.session} is in the signed index but has no events or checkpoints: it was deleted` };
      expected += 1;
    }
    const count = this.#readCount();
    if (count === undefined) {
      return entries.length > 0 || present.size > 0 ? { session: entries[0]?.session ?? [...present][0]!, problem: 'index_invalid', detail: 'the signed count of sessions is missing or invalid: the index was edited' } : undefined;
    }
    if (count !== entries.length) {
      return { session: entries[entries.length - 1]?.session ?? '', problem: 'session_missing', detail: `the signed index counts ${count} sessions but holds ${entries.length}: the newest were deleted` };
    }
    const indexed = new Set(entries.map((e) => e.session));
    const stray = [...present].sort().find((id) => !indexed.has(id));
    return stray === undefined ? undefined : { session: stray, problem: 'index_invalid', detail: `session ${stray} is not in the signed index of sessions: it was added outside nodwyn` };
  }

  #validEntry(entry: IndexEntry): boolean {
    return typeof entry.mac === 'string' && same(entry.mac, mac(this.#key, [ENTRY_DOMAIN, entry.ordinal, entry.session]));
  }

  // The count of entries when its MAC holds, else `undefined`.
  #readCount(): number | undefined {
    const text = this.#count.get(COUNT_ROW);
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    const { count, mac: stored } = (value ?? {}) as { count?: unknown; mac?: unknown };
    if (!Number.isSafeInteger(count) || typeof stored !== 'string') return undefined;
    return same(stored, mac(this.#key, [COUNT_DOMAIN, count])) ? (count as number) : undefined;
  }

  // On append the count must be valid: numbering on top of an edited count would sign the edit.
  #signedCount(): number {
    const count = this.#readCount();
    if (count !== undefined) return count;
    throw new EnvelopeError({
      category: 'PRECONDITION_FAILED',
      code: LogCodes.LOG_HEAD_UNVERIFIED,
      operation: 'log.append',
      remediation: 'The signed index of sessions was changed outside nodwyn, so no new session can be started on top of it. Run `verify` and restore the log from a backup.',
    });
  }
}
