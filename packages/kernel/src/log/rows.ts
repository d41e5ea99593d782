import { EnvelopeError } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import { LogCodes } from './errors.js';
import { canonicalizeChecked } from './event-hash.js';
import type { EventRow, SessionQueryRow } from './statements.js';

/** One session as `EventLog.sessions()` lists it. */
export interface SessionRow {
  id: string;
  /** `ts` of seq 1. */
  created: string;
  /** `ts` of the head event. */
  updated: string;
  /** Number of events (the head's seq: seqs have no gaps). */
  events: number;
  head: { seq: number; hash: string };
  /** The payload of seq 1 when it is a `session.created` event. */
  created_payload: Record<string, unknown> | undefined;
}

/**
 * Turns a stored row back into an event. A payload that is not a JSON object, or not its own canonical
 * text (a duplicate key, which `JSON.parse` and SQL tools read differently), is an edit from outside.
 */
export function toEvent(row: EventRow): LogEvent {
  const payload = parseObject(row.payload);
  if (!payload || !isCanonical(payload, row.payload)) {
    const what = payload ? 'is not in canonical form' : 'is not a JSON object';
    throw new EnvelopeError({
      category: 'INTERNAL',
      code: LogCodes.LOG_EVENT_MALFORMED,
      operation: 'log.read',
      received_value: `session ${row.session} seq ${row.seq}`,
      remediation: `The stored payload of session ${row.session} seq ${row.seq} ${what}; the log was edited outside nodwyn. Run \`verify\` and restore the log from a backup.`,
    });
  }
  return { session: row.session, seq: row.seq, ts: row.ts, type: row.type, actor: row.actor, payload, prev: row.prev, hash: row.hash };
}

/** Builds a `SessionRow` from the sessions query. */
export function toSessionRow(row: SessionQueryRow): SessionRow {
  const created = row.first_type === 'session.created' && row.first_payload !== null ? parseObject(row.first_payload) : undefined;
  return {
    id: row.id,
    // A session missing seq 1 only exists in an edited log; `verify` reports it, the listing still works.
    created: row.created ?? row.updated,
    updated: row.updated,
    events: row.seq,
    head: { seq: row.seq, hash: row.hash },
    created_payload: created,
  };
}

/**
 * Whether `text` is the canonical JSON of `payload`, parsed from it. Reads are hot, so the slow
 * canonicalizer runs only when needed: text that `JSON.stringify` writes back byte for byte has no
 * duplicate key and no spacing, and is canonical when its keys are sorted. Otherwise it may still be
 * canonical where JavaScript moved integer-like keys to the front, which the canonicalizer settles.
 */
function isCanonical(payload: Record<string, unknown>, text: string): boolean {
  const written = JSON.stringify(payload);
  if (written === text) return sortedKeys(payload);
  return canonicalizeChecked(payload) === text;
}

// Whether every object in `value` lists its keys in code-unit order, as RFC 8785 sorts them.
function sortedKeys(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) return value.every(sortedKeys);
  const keys = Object.keys(value);
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) >= (keys[i] as string)) return false;
  return keys.every((key) => sortedKeys((value as Record<string, unknown>)[key]));
}

function parseObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: the caller turns `undefined` into its own envelope or leaves the field empty.
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
