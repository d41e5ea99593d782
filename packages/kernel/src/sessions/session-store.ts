import { EnvelopeError, type SessionInfo } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import { randomBytes } from 'node:crypto';
import { KernelCodes } from '../errors.js';
import type { AppendDraft, EventLog } from '../log/index.js';

/** The log stream of kernel-wide events (primitive replacements); not a session. */
export const KERNEL_STREAM = 'kernel';

/** A new session id: time-sortable, short enough to type. */
export function newSessionId(now = Date.now()): string {
  return `s-${now.toString(36)}-${randomBytes(3).toString('hex')}`;
}

/**
 * Sessions are isolated streams of the log. Everything here is derived from `session.created` events;
 * there is no separate session table to drift out of sync.
 */
export class SessionStore {
  constructor(
    private readonly log: EventLog,
    private readonly append: (session: string, draft: AppendDraft) => LogEvent,
  ) {}

  /** Starts a session in `workspace`. */
  create(options: { workspace: string; title?: string; replayOf?: string }): string {
    const id = newSessionId();
    this.append(id, {
      type: 'session.created',
      actor: 'kernel',
      payload: {
        workspace: options.workspace,
        ...(options.title ? { title: options.title } : {}),
        ...(options.replayOf ? { replay_of: options.replayOf } : {}),
      },
    });
    return id;
  }

  /** Starts a session whose window begins as `session`'s window at `seq` (default: its head). */
  fork(session: string, seq?: number): string {
    const info = this.get(session);
    const at = seq ?? info.events;
    if (!Number.isInteger(at) || at < 1 || at > info.events) {
      throw new EnvelopeError({
        category: 'VALIDATION_FAILED',
        code: KernelCodes.SESSION_SEQ_OUT_OF_RANGE,
        failed_parameter: '$.seq',
        received_value: seq,
        expected: `an integer from 1 to ${info.events}`,
        remediation: `Session ${session} has ${info.events} events; fork at one of them.`,
      });
    }
    const id = newSessionId();
    this.append(id, {
      type: 'session.created',
      actor: 'kernel',
      payload: { workspace: info.workspace, forked_from: { session, seq: at }, ...(info.title ? { title: info.title } : {}) },
    });
    return id;
  }

  /** Every session, newest activity first. */
  list(): SessionInfo[] {
    return this.log.sessions().filter((row) => row.id !== KERNEL_STREAM).map(toInfo);
  }

  /** One session, or `NOT_FOUND`. */
  get(session: string): SessionInfo {
    const first = this.log.read(session, 1, 1)[0];
    const head = this.log.head(session);
    if (!first || !head) {
      throw new EnvelopeError({
        category: 'NOT_FOUND',
        code: KernelCodes.SESSION_NOT_FOUND,
        failed_parameter: '$.session',
        received_value: session,
        remediation: 'No session has that id. Run `nodwyn log list` to see the sessions.',
      });
    }
    const last = this.log.read(session, head.seq, head.seq)[0] ?? first;
    return toInfo({ id: session, created: first.ts, updated: last.ts, events: head.seq, created_payload: first.payload });
  }

  /** The events a session's window is built from: a fork's parent up to the fork point, then its own. */
  lineage(session: string): LogEvent[] {
    const own = this.log.read(session);
    const from = forkedFrom(own[0]);
    if (!from) return own;
    return [...this.lineage(from.session).filter((e) => e.session !== from.session || e.seq <= from.seq), ...own];
  }

  /** The events of `types` in a session's lineage (see `lineage`), without reading the others. */
  lineageOf(session: string, types: readonly string[]): LogEvent[] {
    const own = this.log.readTypes(session, types);
    const from = forkedFrom(this.log.read(session, 1, 1)[0]);
    if (!from) return own;
    return [...this.lineageOf(from.session, types).filter((e) => e.session !== from.session || e.seq <= from.seq), ...own];
  }
}

function forkedFrom(created: LogEvent | undefined): { session: string; seq: number } | undefined {
  return created?.type === 'session.created' ? (created.payload as { forked_from?: { session: string; seq: number } }).forked_from : undefined;
}

function toInfo(row: { id: string; created: string; updated: string; events: number; created_payload?: Record<string, unknown> }): SessionInfo {
  const p = (row.created_payload ?? {}) as { workspace?: string; title?: string; forked_from?: { session: string; seq: number } };
  return {
    id: row.id,
    created: row.created,
    updated: row.updated,
    events: row.events,
    workspace: p.workspace ?? '',
    ...(p.title ? { title: p.title } : {}),
    ...(p.forked_from ? { forkedFrom: p.forked_from } : {}),
  };
}
