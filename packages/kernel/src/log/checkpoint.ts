import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalizeChecked } from './event-hash.js';

/** A signed statement "session S had head seq N with hash H", written in the append's transaction. */
export interface Checkpoint {
  readonly session: string;
  readonly seq: number;
  readonly hash: string;
  readonly mac: string;
}

// Versioned domain tags: a MAC made for anything else with the same key can never pass as a checkpoint.
// v2 is what this code signs; it says "written by a log that keeps the signed session index", so a log
// with v2 checkpoints but no index had its index deleted (see `key-binding.ts`). v1 is still accepted.
const DOMAIN = 'nodwyn.log.checkpoint.v2';
const LEGACY_DOMAIN = 'nodwyn.log.checkpoint.v1';

/**
 * `HMAC-SHA256(key, session ‖ seq ‖ hash)`, hex. The three fields are joined as a canonical JSON array
 * rather than by plain concatenation: session ids are free text, and `"a1" ‖ 23` must not sign the same
 * bytes as `"a12" ‖ 3`. `legacy` gives the MAC older logs wrote.
 */
export function checkpointMac(key: Buffer, session: string, seq: number, hash: string, legacy = false): string {
  return createHmac('sha256', key).update(canonicalizeChecked([legacy ? LEGACY_DOMAIN : DOMAIN, session, seq, hash]), 'utf8').digest('hex');
}

/** True when `checkpoint.mac` is the MAC of its fields under `key`, current or legacy (constant-time comparison). */
export function checkpointValid(key: Buffer, checkpoint: Checkpoint): boolean {
  return checkpointSignedAs(key, checkpoint, false) || checkpointSignedAs(key, checkpoint, true);
}

/** True when `checkpoint.mac` is its MAC under `key` in the current form (`legacy` false) or the old one. */
export function checkpointSignedAs(key: Buffer, checkpoint: Checkpoint, legacy: boolean): boolean {
  if (typeof checkpoint.mac !== 'string' || !/^[0-9a-f]{64}$/.test(checkpoint.mac)) return false;
  const expected = Buffer.from(checkpointMac(key, checkpoint.session, checkpoint.seq, checkpoint.hash, legacy), 'hex');
  return timingSafeEqual(expected, Buffer.from(checkpoint.mac, 'hex'));
}
