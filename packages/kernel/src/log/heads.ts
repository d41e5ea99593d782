import { GENESIS_HASH } from '@nodwyn/protocol';
import { checkpointValid } from './checkpoint.js';
import type { CheckpointRow, LogStatements } from './statements.js';

/** A session's head as the chain and its newest checkpoint agree on it (`seq` 0 for a new session). */
export type HeadCheck = { readonly ok: true; readonly seq: number; readonly hash: string } | { readonly ok: false; readonly detail: string };

/** A session whose head and newest checkpoint disagree, found when the log was opened. */
export interface HeadMismatch {
  readonly session: string;
  readonly detail: string;
}

/**
 * Compares a session's head with its newest signed checkpoint. Every append writes both in one
 * transaction, so they always agree unless someone edited the database; appending on top of a
 * disagreement would sign the edit, so the log refuses to. Checkpoints this process wrote or already
 * checked are remembered, field for field, to spare an HMAC per append.
 */
export class HeadChecker {
  readonly #statements: LogStatements;
  readonly #key: Buffer;
  readonly #known = new Map<string, CheckpointRow>();

  constructor(statements: LogStatements, key: Buffer) {
    this.#statements = statements;
    this.#key = key;
  }

  /** Checks `session`'s head; call inside the append transaction so the answer cannot go stale. */
  check(session: string): HeadCheck {
    const head = this.#statements.head.get(session);
    const checkpoint = this.#statements.newestCheckpoint.get(session);
    if (!head && !checkpoint) return { ok: true, seq: 0, hash: GENESIS_HASH };
    if (!checkpoint) return { ok: false, detail: `head seq ${head?.seq} has no signed checkpoint` };
    if (!head) return { ok: false, detail: `no events, but a checkpoint signs seq ${checkpoint.seq}: the events were removed` };
    if (head.seq !== checkpoint.seq) {
      return { ok: false, detail: `head seq ${head.seq} but the newest checkpoint signs seq ${checkpoint.seq}` };
    }
    if (head.hash !== checkpoint.hash) return { ok: false, detail: `the hash of head seq ${head.seq} is not the one its checkpoint signs` };
    if (!this.#isKnown(checkpoint) && !checkpointValid(this.#key, checkpoint)) {
      return { ok: false, detail: `the checkpoint at seq ${checkpoint.seq} has an invalid MAC (edited, or a different key)` };
    }
    this.remember(checkpoint);
    return { ok: true, seq: head.seq, hash: head.hash };
  }

  /**
   * Records a checkpoint whose MAC is known to be valid (one this process just signed). The cache vouches
   * only for the MAC, so an entry from a transaction that rolled back is harmless: the row it describes
   * was never written, and any other row fails the field-for-field comparison.
   */
  remember(checkpoint: CheckpointRow): void {
    this.#known.set(checkpoint.session, checkpoint);
  }

  /** Checks every session's head; used on open, where a disagreement is reported, not thrown. */
  scan(): HeadMismatch[] {
    const sessions = [...new Set([...this.#statements.sessionIds.all(), ...this.#statements.checkpointSessionIds.all()])].sort();
    const mismatches: HeadMismatch[] = [];
    for (const session of sessions) {
      const result = this.check(session);
      if (!result.ok) mismatches.push({ session, detail: result.detail });
    }
    return mismatches;
  }

  #isKnown(row: CheckpointRow): boolean {
    const known = this.#known.get(row.session);
    return known !== undefined && known.seq === row.seq && known.hash === row.hash && known.mac === row.mac;
  }
}
