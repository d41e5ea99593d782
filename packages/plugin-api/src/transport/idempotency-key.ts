import { randomUUID } from 'node:crypto';
import type { Envelope } from '@nodwyn/protocol';
import { transportEnvelope } from './codes.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { ReplayProtection } from './operation-outcome.js';
import type { CallOptions, OperationDescriptor } from './operation-types.js';

/** The header a key travels in when the operation names none. */
export const DEFAULT_IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** RFC 9562 textual form, any version. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The key a call sends, and the store write to make right before it is sent. */
export interface CallKey {
  readonly protection: ReplayProtection;
  readonly key?: { readonly header: string; readonly value: string };
  /** Stores the key of this intent; runs before the first request leaves, so a crash repeats with it. */
  readonly persist: () => void;
}

/**
 * Decides a mutation's idempotency key (docs/architecture.md §8). `auto`: the key stored for
 * (operation, logical id) or a new UUID; the logical id is the caller's, else the arguments' digest.
 * `caller_owned`: the caller's UUID, remembered under the logical id so a repeat without it finds it;
 * with `persist: 'required'` the store is bypassed and a call without a key is refused.
 * `content_hash`: the digest of the canonical arguments, so the identical body is its own protection.
 * Reads and `none` send no key.
 */
export function callKey(operation: OperationDescriptor, digest: string, options: CallOptions, store: IdempotencyStore): CallKey | { readonly envelope: Envelope } {
  const policy = operation.idempotency?.policy ?? 'none';
  const none = { protection: undefined, persist: () => undefined };
  if (operation.tier === 'read' || policy === 'none') return none;
  const header = operation.idempotency?.header ?? DEFAULT_IDEMPOTENCY_HEADER;
  const logicalId = options.logicalId ?? digest;
  if (policy === 'content_hash') return { protection: policy, key: { header, value: digest }, persist: none.persist };
  if (policy === 'auto') {
    const stored = store.get(operation.id, logicalId);
    const value = stored ?? randomUUID();
    return { protection: policy, key: { header, value }, persist: () => (stored === undefined ? store.put(operation.id, logicalId, value) : undefined) };
  }
  const required = operation.idempotency?.persist === 'required';
  const given = options.idempotencyKey ?? (required ? undefined : store.get(operation.id, logicalId));
  if (given === undefined) {
    return {
      envelope: transportEnvelope('IDEMPOTENCY_KEY_REQUIRED', {
        operation: operation.id,
        failed_parameter: 'idempotencyKey',
        expected: 'UUIDv4 string',
        remediation: `Generate a random UUIDv4, keep it with the intent of this ${operation.id} call, and pass it as idempotencyKey. Reuse the exact same key on every retry of it.`,
      }),
    };
  }
  if (!UUID.test(given)) {
    return {
      envelope: transportEnvelope('IDEMPOTENCY_KEY_INVALID', {
        operation: operation.id,
        failed_parameter: 'idempotencyKey',
        received_value: given,
        sensitive: true,
        expected: 'UUIDv4 string',
        remediation: `Pass a random UUIDv4 as idempotencyKey of ${operation.id}, kept with the intent, and reuse it on every retry of it.`,
      }),
    };
  }
  const persist = required || options.idempotencyKey === undefined ? none.persist : () => store.put(operation.id, logicalId, given);
  return { protection: policy, key: { header, value: given }, persist };
}
