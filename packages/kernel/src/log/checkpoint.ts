import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalizeChecked } from './event-hash.js';

/** A signed statement "session S had head seq N with hash H", written in the append's transaction. */
export interface Checkpoint {
  readonly session: string;
  readonly seq: number;
  readonly hash: string;
  readonly mac: string;
}

// Versioned domain tag: a MAC made for anything else with the same key can never pass as a checkpoint.
const DOMAIN = 'nodwyn.log.checkpoint.v1';

/**
 * `HMAC-SHA256(key, session ‖ seq ‖ hash)`, hex. The three fields are joined as a canonical JSON array
 * rather than by plain concatenation: session ids are free text, and `"a1" ‖ 23` must not sign the same
 * bytes as `"a12" ‖ 3`.
 */
export function checkpointMac(key: Buffer, session: string, seq: number, hash: string): string {
  return createHmac('sha256', key).update(canonicalizeChecked([DOMAIN, session, seq, hash]), 'utf8').digest('hex');
}

/** True when `checkpoint.mac` is the MAC of its fields under `key` (constant-time comparison). */
export function checkpointValid(key: Buffer, checkpoint: Checkpoint): boolean {
  if (typeof checkpoint.mac !== 'string' || !/^[0-9a-f]{64}$/.test(checkpoint.mac)) return false;
  const expected = Buffer.from(checkpointMac(key, checkpoint.session, checkpoint.seq, checkpoint.hash), 'hex');
  return timingSafeEqual(expected, Buffer.from(checkpoint.mac, 'hex'));
}
