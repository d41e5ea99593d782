import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * The RFC 8785 (JCS) text of a call's arguments: the same arguments give the same text whatever the
 * order of their keys, so a confirmation token and a `content_hash` key are bound to what is sent, not
 * to how it was written. The kernel's log hashes with the same canonicalizer (docs/architecture.md §3).
 */
export function canonicalArgs(args: unknown): string {
  return canonicalize(args) ?? 'null';
}

/** Lowercase hex SHA-256 of the canonical arguments. */
export function argsDigest(args: unknown): string {
  return createHash('sha256').update(canonicalArgs(args), 'utf8').digest('hex');
}
