import { EnvelopeError, type PluginStore } from '@nodwyn/plugin-api';
import { KernelCodes } from '../errors.js';
import { pluginStore, prepareStoreStatements, type StoreStatements } from '../store/plugin-store.js';
import type { LogEvent } from '@nodwyn/protocol';
import type { Transaction } from 'better-sqlite3';
import { checkpointMac } from './checkpoint.js';
import { checkSeq, checkSession, prepareDraft, prepareDrafts, type AppendDraft, type PreparedDraft } from './draft.js';
import { LogCodes, toLogError } from './errors.js';
import { hashEventText } from './event-hash.js';
import { HeadChecker, type HeadMismatch } from './heads.js';
import { bindKey, signedSessions } from './key-binding.js';
import { checkKeySource, loadLogKey } from './key.js';
import { ListenerHub, type LogListener } from './listeners.js';
import { checkOptions, type EventLogOptions } from './options.js';
import { openLogDatabase, type SqliteDatabase } from './schema.js';
import { SessionIndex } from './session-index.js';
import { readSigned } from './signed-read.js';
import { toEvent, toSessionRow, type SessionRow } from './rows.js';
import { prepareStatements, type LogStatements } from './statements.js';
import { verifyLog, type VerifyReport } from './verify.js';

type Writer = Transaction<(session: string, drafts: readonly PreparedDraft[]) => LogEvent[]>;

/**
 * The kernel's append-only, hash-chained event log: the single source of truth (docs/architecture.md §1,
 * §3). Each append is one `BEGIN IMMEDIATE` transaction that reads the head, chains the new events
 * to it and signs the new head with an HMAC checkpoint, so several processes may append to one
 * session safely, and `verify` can find edited, removed, reordered, cut or rewritten events.
 */
export class EventLog {
  #recovery: readonly HeadMismatch[] | undefined;
  readonly #db: SqliteDatabase;
  readonly #file: string;
  readonly #key: Buffer;
  readonly #statements: LogStatements;
  readonly #heads: HeadChecker;
  readonly #index: SessionIndex;
  readonly #hub: ListenerHub;
  readonly #clock: () => Date;
  readonly #writer: Writer;
  #storeStatements: StoreStatements | undefined;
  /** Events appended inside an open `transaction`, published once it commits. */
  #pending: LogEvent[] | undefined;
  #closed = false;

  private constructor(db: SqliteDatabase, key: Buffer, options: EventLogOptions) {
    this.#db = db;
    this.#file = options.path;
    this.#key = key;
    this.#statements = prepareStatements(db);
    this.#heads = new HeadChecker(this.#statements, key);
    this.#index = new SessionIndex(db, key);
    this.#hub = new ListenerHub(options.onListenerError);
    this.#clock = options.clock ?? (() => new Date());
    this.#writer = db.transaction((session: string, drafts: readonly PreparedDraft[]) => this.#write(session, drafts));
  }

  /**
   * Sessions whose head disagrees with their newest signed checkpoint; appends to them are refused (each
   * append checks its own session's head, so this scan is only for reporting). Computed on first use:
   * scanning every session costs time proportional to the log, and most opens never ask.
   */
  get recovery(): readonly HeadMismatch[] {
    // One read snapshot, so another process committing meanwhile cannot look like a mismatch.
    this.#recovery ??= this.#use('log.recovery', () => this.#db.transaction(() => this.#heads.scan()).deferred());
    return this.#recovery;
  }

  /**
   * Opens or creates a log. Fails with an envelope for a bad key, a foreign or corrupt file, or a missing
   * folder; and for a key file that is gone (`LOG_KEY_MISSING`) or another key (`LOG_KEY_MISMATCH`) when
   * sessions were signed already, rather than making a new key that would call them all forged.
   */
  static open(options: EventLogOptions): EventLog {
    checkOptions(options);
    const memory = options.path === ':memory:';
    checkKeySource(options, memory);
    const db = openLogDatabase(options.path, options.busyTimeoutMs);
    try {
      const key = loadLogKey(options, memory, () => signedSessions(db), options.path);
      const log = new EventLog(db, key, options);
      bindKey(db, key, log.#index, { file: options.path, keyName: options.keyPath ?? '(given as `key`)' });
      return log;
    } catch (error) {
      db.close();
      throw toLogError(error, 'log.open', options.path);
    }
  }

  /** Appends one event in its own transaction and returns it as stored. */
  append(session: string, draft: AppendDraft): LogEvent {
    const events = this.#append(session, [prepareDraft(draft)]);
    return events[0] as LogEvent;
  }

  /** Appends events in one transaction: all of them, or (on any invalid draft or failure) none. */
  appendBatch(session: string, drafts: readonly AppendDraft[]): LogEvent[] {
    return this.#append(session, prepareDrafts(drafts));
  }

  /** Events of `session` with `fromSeq <= seq <= toSeq`, in seq order. */
  read(session: string, fromSeq = 1, toSeq = Number.MAX_SAFE_INTEGER): LogEvent[] {
    checkSession(session, 'log.read');
    checkSeq(fromSeq, 'fromSeq');
    checkSeq(toSeq, 'toSeq');
    return this.#use('log.read', () => this.#statements.range.all(session, fromSeq, toSeq, -1).map(toEvent));
  }

  /** Events of `session` of the given types with `fromSeq <= seq <= toSeq`, in seq order; the rest are not parsed. */
  readTypes(session: string, types: readonly string[], fromSeq = 1, toSeq = Number.MAX_SAFE_INTEGER): LogEvent[] {
    checkSession(session, 'log.readTypes');
    checkSeq(fromSeq, 'fromSeq');
    checkSeq(toSeq, 'toSeq');
    return this.#use('log.readTypes', () => this.#statements.rangeOfTypes.all(JSON.stringify(types), session, fromSeq, toSeq).map(toEvent));
  }

  /**
   * The seq of the newest event of `session` whose type is one of `types`, or `undefined`. One index seek
   * per type, so it costs the same on any length of session, whether or not the type is in it.
   */
  lastSeqOf(session: string, types: readonly string[]): number | undefined {
    checkSession(session, 'log.lastSeqOf');
    return this.#use('log.lastSeqOf', () => this.#statements.lastSeqOfTypes.get(session, JSON.stringify(types)) ?? undefined);
  }

  /** The seq of the oldest event of `session` of `type`, or `undefined`; one index seek, like `lastSeqOf`. */
  firstSeqOf(session: string, type: string): number | undefined {
    checkSession(session, 'log.firstSeqOf');
    return this.#use('log.firstSeqOf', () => this.#statements.firstSeqOfType.get(session, type) ?? undefined);
  }

  /**
   * The sessions whose newest event among `among` types is of `type` (`'turn.started'` among the turn
   * events: the sessions whose last turn is open), in one query probing each session from its head.
   */
  sessionsEndingIn(type: string, among: readonly string[]): string[] {
    return this.#use('log.sessionsEndingIn', () => this.#statements.sessionsEndingIn.all(JSON.stringify(among), type));
  }

  /**
   * The event at `seq`, only if the file proves it is as the log wrote it (its hash chains to a signed
   * checkpoint); `undefined` when it does not, or there is no such event. What a plugin that must trust
   * an old event (a capability's admission) reads.
   */
  signed(session: string, seq: number): LogEvent | undefined {
    checkSession(session, 'log.signed');
    checkSeq(seq, 'seq');
    return this.#use('log.signed', () => this.#db.transaction(() => readSigned(this.#statements, this.#key, session, seq)).deferred());
  }

  /** The newest event's seq and hash, or `undefined` for a session with no events. */
  head(session: string): { seq: number; hash: string } | undefined {
    checkSession(session, 'log.head');
    return this.#use('log.head', () => {
      const row = this.#statements.head.get(session);
      return row ? { seq: row.seq, hash: row.hash } : undefined;
    });
  }

  /** Every session, the one appended to most recently first. */
  sessions(): SessionRow[] {
    return this.#use('log.sessions', () => this.#statements.sessions.all().map(toSessionRow));
  }

  /** Checks one session, or all; reports the first bad event (see `VerifyReport`). */
  verify(session?: string): VerifyReport {
    return this.#use('log.verify', () =>
      verifyLog(this.#statements, this.#key, this.#index, (fn) => this.#db.transaction(fn).deferred(), session),
    );
  }

  /**
   * Calls `listener` with each event this process appends, after its transaction commits, in seq
   * order. Events other processes append are not seen. Returns the unsubscribe function.
   */
  subscribe(listener: (event: LogEvent) => void): () => void {
    return this.#hub.subscribe(listener as LogListener);
  }

  /** A plugin's key-value store in this database; its `transaction` is this log's (see `transaction`). */
  store(plugin: string): PluginStore {
    const use = <T>(operation: string, fn: () => T): T => this.#use(operation, fn);
    this.#storeStatements ??= this.#use('store.open', () => prepareStoreStatements(this.#db));
    return pluginStore(plugin, this.#storeStatements, use, (fn) => this.transaction(fn));
  }

  /**
   * Runs `fn` in one IMMEDIATE transaction: store writes and appends made inside it commit together or not
   * at all. Subscribers hear its events only after the commit. Nested calls join the outer transaction.
   */
  transaction<T>(fn: () => T): T {
    if (this.#pending) return this.#use('store.transaction', () => this.#db.transaction(fn)());
    const pending: LogEvent[] = [];
    this.#pending = pending;
    let result: T;
    try {
      result = this.#use('store.transaction', () => this.#db.transaction(() => notAsync(fn())).immediate());
    } finally {
      this.#pending = undefined;
    }
    this.#hub.publish(pending);
    return result;
  }

  /** Closes the database; later calls fail with `LOG_CLOSED`. Safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#hub.clear();
    this.#db.close();
  }

  #append(session: string, drafts: readonly PreparedDraft[]): LogEvent[] {
    checkSession(session, 'log.append');
    if (drafts.length === 0) return [];
    const events = this.#use('log.append', () => this.#writer.immediate(session, drafts));
    if (this.#pending) this.#pending.push(...events);
    else this.#hub.publish(events);
    return events;
  }

  // Runs inside BEGIN IMMEDIATE: the write lock is held, so the head read here stays the head.
  #write(session: string, drafts: readonly PreparedDraft[]): LogEvent[] {
    const head = this.#heads.check(session);
    if (!head.ok) throw headUnverified(session, head.detail);
    if (head.seq === 0) this.#index.add(session);
    // One timestamp per transaction, taken under the lock, so ts follows commit order as far as the wall clock does.
    const ts = this.#clock().toISOString();
    const events: LogEvent[] = [];
    let { seq, hash: prev } = head;
    for (const draft of drafts) {
      seq += 1;
      const event: LogEvent = { session, seq, ts, type: draft.type, actor: draft.actor, payload: draft.payload, prev, hash: '' };
      event.hash = hashEventText(event, draft.payloadText);
      this.#statements.insertEvent.run(session, seq, ts, draft.type, draft.actor, draft.payloadText, prev, event.hash);
      events.push(event);
      prev = event.hash;
    }
    const mac = checkpointMac(this.#key, session, seq, prev);
    this.#statements.insertCheckpoint.run(session, seq, prev, ts, mac);
    this.#heads.remember({ session, seq, hash: prev, mac });
    return events;
  }

  #use<T>(operation: string, fn: () => T): T {
    if (this.#closed) {
      throw new EnvelopeError({ category: 'PRECONDITION_FAILED', code: LogCodes.LOG_CLOSED, operation, remediation: 'The log was closed; open it again.' });
    }
    try {
      return fn();
    } catch (error) {
      throw toLogError(error, operation, this.#file);
    }
  }
}

function notAsync<T>(value: T): T {
  if (value instanceof Promise) {
    throw new EnvelopeError({
      category: 'INTERNAL',
      code: KernelCodes.STORE_TRANSACTION_ASYNC,
      operation: 'store.transaction',
      remediation: 'A store transaction runs synchronously; do the async work first, then write in a transaction function that returns no promise.',
    });
  }
  return value;
}

function headUnverified(session: string, detail: string): EnvelopeError {
  return new EnvelopeError({
    category: 'PRECONDITION_FAILED',
    code: LogCodes.LOG_HEAD_UNVERIFIED,
    operation: 'log.append',
    failed_parameter: 'session',
    received_value: session,
    remediation: `Session ${session} was changed outside nodwyn (${detail}); appending would sign the change. Run \`verify\`, restore the log from a backup, or continue in a new session.`,
  });
}
