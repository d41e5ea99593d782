import { GENESIS_HASH } from '@nodwyn/protocol';
import { checkpointValid } from './checkpoint.js';
import { canonicalizeChecked, hashEventText } from './event-hash.js';
import { isPlainObject } from './json-value.js';
import type { SessionIndex } from './session-index.js';
import type { EventRow, LogStatements } from './statements.js';

/** What `verify` found wrong with an event (see `EventLog.verify`). */
export type VerifyProblem =
  | 'gap'
  | 'hash_mismatch'
  | 'prev_mismatch'
  | 'truncated'
  | 'checkpoint_invalid'
  | 'malformed'
  /** A session the signed index names is gone (seq 0: the session as a whole). */
  | 'session_missing'
  /** The signed index itself was edited, or a session is not in it (seq 0). */
  | 'index_invalid';

/** The outcome of `verify`: clean, or the first bad event (lowest seq) of the first bad session. */
export type VerifyReport =
  | { ok: true; sessions: number; events: number }
  | { ok: false; session: string; seq: number; problem: VerifyProblem; detail: string; sessions: number; events: number };

interface Finding {
  readonly seq: number;
  readonly problem: VerifyProblem;
  readonly detail: string;
}

interface ChainWalk {
  /** The last seq of the unbroken chain from seq 1 (also the number of good events). */
  readonly head: number;
  readonly finding: Finding | undefined;
}

/** Runs `fn` on one consistent snapshot, so a concurrent append cannot look like a truncation. */
export type Snapshot = <T>(fn: () => T) => T;

const PAGE = 1000;

/**
 * Verifies one session or, when `session` is undefined, all of them in id order, then the signed index
 * of sessions: for all, that no session was deleted whole or added outside the log; for one, its entry.
 */
export function verifyLog(statements: LogStatements, key: Buffer, index: SessionIndex, snapshot: Snapshot, session?: string): VerifyReport {
  const ids = session !== undefined ? [session] : allSessions(statements);
  const present = new Set<string>();
  let sessions = 0;
  let events = 0;
  for (const id of ids) {
    const result = snapshot(() => verifySession(statements, key, id));
    if (result.present) {
      sessions += 1;
      present.add(id);
    }
    events += result.events;
    if (result.finding) return { ok: false, session: id, ...result.finding, sessions, events };
  }
  const problem = snapshot(() => (session === undefined ? index.checkAll(present) : index.checkOne(session, present.has(session))));
  if (problem) return { ok: false, session: problem.session, seq: 0, problem: problem.problem, detail: problem.detail, sessions, events };
  return { ok: true, sessions, events };
}

function allSessions(statements: LogStatements): string[] {
  // Checkpoints count too: a session whose events were all deleted lives on only there.
  return [...new Set([...statements.sessionIds.all(), ...statements.checkpointSessionIds.all()])].sort();
}

function verifySession(statements: LogStatements, key: Buffer, session: string): { present: boolean; events: number; finding: Finding | undefined } {
  const chain = walkChain(statements, session);
  // Only a checkpoint problem at a lower seq than the chain's own can be the first bad event.
  const limit = chain.finding?.seq ?? Number.POSITIVE_INFINITY;
  const signed = checkCheckpoints(statements, key, session, chain.head, limit);
  const present = chain.head > 0 || chain.finding !== undefined || signed.seen;
  return { present, events: chain.head, finding: signed.finding ?? chain.finding };
}

/** Walks the hash chain from seq 1 in pages, stopping at the first gap, malformed row or broken link. */
function walkChain(statements: LogStatements, session: string): ChainWalk {
  let expected = 1;
  let prev = GENESIS_HASH;
  for (;;) {
    const rows = statements.range.all(session, expected, Number.MAX_SAFE_INTEGER, PAGE);
    for (const row of rows) {
      const finding = checkRow(row, expected, prev);
      if (finding) return { head: expected - 1, finding };
      prev = row.hash;
      expected += 1;
    }
    if (rows.length < PAGE) return { head: expected - 1, finding: undefined };
  }
}

function checkRow(row: EventRow, seq: number, prev: string): Finding | undefined {
  if (row.seq !== seq) return { seq, problem: 'gap', detail: `seq ${seq} is missing; the next stored event is seq ${row.seq}` };
  let payload: unknown;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    return { seq, problem: 'malformed', detail: `the payload of seq ${seq} is not JSON` };
  }
  if (!isPlainObject(payload)) return { seq, problem: 'malformed', detail: `the payload of seq ${seq} is not a JSON object` };
  // The stored bytes must be their own canonical form: `{"a":1,"a":2}` parses like `{"a":2}` here, but a
  // SQL tool reading the row sees the first key, so a respelled payload would mean two things at once.
  if (canonicalizeChecked(payload) !== row.payload) {
    return { seq, problem: 'malformed', detail: `the stored payload of seq ${seq} is not in canonical form (a duplicate key, reordered keys or added spaces): it was rewritten outside nodwyn` };
  }
  if (row.prev !== prev) return { seq, problem: 'prev_mismatch', detail: `seq ${seq} does not link to the hash of seq ${seq - 1}` };
  const hash = hashEventText({ session: row.session, seq, ts: row.ts, type: row.type, actor: row.actor, prev }, row.payload);
  if (hash !== row.hash) return { seq, problem: 'hash_mismatch', detail: `seq ${seq} does not hash to its stored hash: its content was changed` };
  return undefined;
}

/**
 * Checks the signed checkpoints against the chain. Each append transaction signs its last event, so
 * a checkpoint beyond the head means a cut tail, and one whose hash differs from the event at its seq
 * means the chain was rewritten (hashes recomputed, which the chain alone cannot see). A rewrite is
 * named at the first event after the last checkpoint that still matches: the earliest seq that can no
 * longer be trusted (exact for single appends; the start of the batch for batched ones).
 */
function checkCheckpoints(
  statements: LogStatements,
  key: Buffer,
  session: string,
  head: number,
  limit: number,
): { seen: boolean; finding: Finding | undefined } {
  let trusted = 0;
  let seen = false;
  for (let after = 0; ; ) {
    const rows = statements.checkpointsAfter.all(session, after, PAGE);
    for (const cp of rows) {
      seen = true;
      if (cp.seq >= limit) return { seen, finding: undefined };
      if (!checkpointValid(key, cp)) {
        return { seen, finding: { seq: cp.seq, problem: 'checkpoint_invalid', detail: `the checkpoint at seq ${cp.seq} has an invalid MAC (forged, edited, or a different key)` } };
      }
      if (cp.seq > head) {
        return { seen, finding: { seq: head + 1, problem: 'truncated', detail: `a signed checkpoint covers seq ${cp.seq}, but the log ends at seq ${head}` } };
      }
      if (statements.eventHashAt.get(session, cp.seq) !== cp.hash) {
        const detail = `the signed checkpoint at seq ${cp.seq} names another hash: events ${trusted + 1}..${cp.seq} were rewritten`;
        return { seen, finding: { seq: trusted + 1, problem: 'hash_mismatch', detail } };
      }
      trusted = cp.seq;
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]?.seq ?? after;
  }
  // Only for a clean chain: past a chain problem, later checkpoints were skipped and coverage is unknown.
  if (limit === Number.POSITIVE_INFINITY && trusted < head) {
    const detail = `events ${trusted + 1}..${head} are not covered by a signed checkpoint: they were added outside the log`;
    return { seen, finding: { seq: trusted + 1, problem: 'checkpoint_invalid', detail } };
  }
  return { seen, finding: undefined };
}
