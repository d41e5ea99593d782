import type { LogEvent } from '@nodwyn/protocol';
import { checkpointValid } from './checkpoint.js';
import { hashEventText } from './event-hash.js';
import { toEvent } from './rows.js';
import type { LogStatements } from './statements.js';

/**
 * The event at `seq` if the file proves it is as the log wrote it: its hash, and each later one up to
 * the first checkpoint at or after it, recompute and link, and that checkpoint's MAC holds. Every append
 * signs its last event, so this reads one batch, not the session. `undefined` when the proof fails.
 */
export function readSigned(statements: LogStatements, key: Buffer, session: string, seq: number): LogEvent | undefined {
  const checkpoint = statements.checkpointFrom.get(session, seq);
  if (!checkpoint || !checkpointValid(key, checkpoint)) return undefined;
  const rows = statements.range.all(session, seq, checkpoint.seq, -1);
  if (rows.length !== checkpoint.seq - seq + 1) return undefined;
  let prev: string | undefined;
  for (const row of rows) {
    if (prev !== undefined && row.prev !== prev) return undefined;
    // The stored text is hashed as is: only the exact canonical bytes that were signed give the hash.
    if (hashEventText(row, row.payload) !== row.hash) return undefined;
    prev = row.hash;
  }
  return prev === checkpoint.hash && rows[0] ? toEvent(rows[0]) : undefined;
}
