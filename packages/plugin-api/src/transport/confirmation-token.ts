import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TransportCode } from './codes.js';

/** How long a preview's token authorizes its call. */
export const CONFIRMATION_TOKEN_TTL_MS = 300_000;

const PREFIX = 'ngc1.';
const DOMAIN = 'nodwyn.confirmation.v1';

/** Why a token does not authorize a call. */
export type TokenRefusal = { readonly code: Extract<TransportCode, 'CONFIRMATION_TOKEN_INVALID' | 'CONFIRMATION_TOKEN_SPENT'>; readonly reason: string };

/** A token that authorizes a call: its id and expiry (ms since the epoch), to spend it with. */
export type TokenGrant = { readonly id: string; readonly expiresAt: number };

/** Issues and checks a client's confirmation tokens, and remembers which were spent. */
export interface ConfirmationTokens {
  /** A token for `operation` with arguments of digest `digest`. */
  issue(operation: string, digest: string): string;
  /**
   * The token's id when it authorizes this call: made by this client for this operation and these
   * arguments, not expired, and either unspent or spent by a call under the same `protection` (the
   * key sent; undefined for a call without a key, which may use a token once).
   */
  check(token: string, operation: string, digest: string, protection: string | undefined): TokenGrant | TokenRefusal;
  /** Marks the token spent by a call that is about to send, bound to that call's protection. */
  spend(id: string, protection: string | undefined, expiresAt: number): void;
}

interface Payload {
  readonly o: string;
  readonly e: number;
  readonly n: string;
}

/**
 * Confirmation tokens (docs/architecture.md §8): "ngc1." + base64url(payload) + "." + base64url(HMAC-
 * SHA256(sessionKey, [domain, operation, sha256(canonical args), expiry, nonce])). The digest is not in
 * the token: a token checked against other arguments fails its MAC. A spent token is bound to the
 * SHA-256 of the key its first call sent, so the key itself is never held here.
 */
export function confirmationTokens(sessionKey: Uint8Array, now: () => number = Date.now): ConfirmationTokens {
  const spent = new Map<string, { protection: string | undefined; expiresAt: number }>();
  const mac = (payload: Payload, operation: string, digest: string): Buffer =>
    createHmac('sha256', sessionKey).update(JSON.stringify([DOMAIN, operation, digest, payload.e, payload.n]), 'utf8').digest();
  const protectionId = (protection: string | undefined): string | undefined => (protection === undefined ? undefined : createHash('sha256').update(protection).digest('base64url'));
  return {
    issue(operation, digest) {
      const payload: Payload = { o: operation, e: now() + CONFIRMATION_TOKEN_TTL_MS, n: randomBytes(16).toString('base64url') };
      return `${PREFIX}${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac(payload, operation, digest).toString('base64url')}`;
    },
    check(token, operation, digest, protection) {
      const parsed = parse(token);
      if (parsed === undefined) return { code: 'CONFIRMATION_TOKEN_INVALID', reason: 'is not a confirmation token of this session' };
      if (parsed.payload.o !== operation) return { code: 'CONFIRMATION_TOKEN_INVALID', reason: 'was issued for another operation' };
      const expected = mac(parsed.payload, operation, digest);
      if (parsed.mac.length !== expected.length || !timingSafeEqual(parsed.mac, expected)) {
        return { code: 'CONFIRMATION_TOKEN_INVALID', reason: 'was issued for other arguments, or by another session' };
      }
      if (parsed.payload.e <= now()) return { code: 'CONFIRMATION_TOKEN_INVALID', reason: 'has expired' };
      const use = spent.get(parsed.payload.n);
      if (use !== undefined && (use.protection === undefined || use.protection !== protectionId(protection))) {
        return { code: 'CONFIRMATION_TOKEN_SPENT', reason: 'was already used by a call that sent' };
      }
      return { id: parsed.payload.n, expiresAt: parsed.payload.e };
    },
    spend(id, protection, expiresAt) {
      const at = now();
      for (const [key, use] of spent) if (use.expiresAt <= at) spent.delete(key);
      if (!spent.has(id)) spent.set(id, { protection: protectionId(protection), expiresAt });
    },
  };
}

function parse(token: string): { payload: Payload; mac: Buffer } | undefined {
  if (!token.startsWith(PREFIX)) return undefined;
  const [body, signature, extra] = token.slice(PREFIX.length).split('.');
  if (body === undefined || signature === undefined || extra !== undefined) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const { o, e, n } = (payload ?? {}) as Record<string, unknown>;
  if (typeof o !== 'string' || typeof e !== 'number' || typeof n !== 'string') return undefined;
  return { payload: { o, e, n }, mac: Buffer.from(signature, 'base64url') };
}
