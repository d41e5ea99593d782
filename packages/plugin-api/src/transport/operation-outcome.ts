import type { Envelope } from '@nodwyn/protocol';
import { transportEnvelope } from './codes.js';
import type { CallArgs } from './operation-preflight.js';
import { isSensitivePath, REDACTED } from './operation-redaction.js';
import type { IdempotencyPolicy, OperationDescriptor } from './operation-types.js';
import { mentionsResponse, resolveReference, UNRESOLVED } from './verification-reference.js';

/** What protects a mutation against being applied twice when it is repeated: its policy, or nothing. */
export type ReplayProtection = Exclude<IdempotencyPolicy, 'none'> | undefined;

/** What an unknown outcome says beyond the operation. */
export interface UnknownOutcome {
  /** Why the runtime cannot know, e.g. "the connection broke after the request was sent". */
  readonly reason: string;
  readonly protection: ReplayProtection;
  readonly args: CallArgs;
  readonly attempts: number;
  readonly http_status?: number;
  readonly request_id?: string;
  /** The manifest's text for the answer, kept in the remediation. */
  readonly note?: string;
}

/**
 * OUTCOME_UNKNOWN (docs/architecture.md §8): the server may or may not have applied the mutation.
 * Replay protection decides retryable (same_key_only with a key or an identity body, else
 * after_remediation, so a policy that reads only the envelope checks instead of resending).
 * next_action is the verification read when it needs nothing from the lost answer, else the repeat
 * under the same protection, else null. The key itself is never named.
 */
export function unknownOutcomeEnvelope(operation: OperationDescriptor, outcome: UnknownOutcome): Envelope {
  const repeat = repeatAdvice(operation, outcome.protection);
  const check = verifyAction(operation, outcome.args);
  const guard =
    repeat === undefined
      ? `It has no idempotency key, so repeating it could apply it twice: check its effect first${check === undefined ? '' : ` (${check})`}, and repeat only if it did not happen.`
      : `${repeat} is safe: the server recognises the repeat; a new key for the same intent is the one way to apply it twice.`;
  return transportEnvelope('OUTCOME_UNKNOWN', {
    operation: operation.id,
    http_status: outcome.http_status,
    request_id: outcome.request_id,
    attempts: outcome.attempts,
    retryable: outcome.protection === undefined ? 'after_remediation' : 'same_key_only',
    next_action: check ?? repeat,
    remediation: `nodwyn cannot know whether ${operation.id} was applied: ${outcome.reason}. ${guard}${outcome.note === undefined ? '' : ` ${outcome.note}`}`,
  });
}

function repeatAdvice(operation: OperationDescriptor, protection: ReplayProtection): string | undefined {
  if (protection === 'caller_owned') return `Repeat ${operation.id} with the same idempotencyKey and identical arguments`;
  if (protection === 'auto') return `Repeat ${operation.id} with identical arguments and the same logicalId (the runtime resends the stored key)`;
  if (protection === 'content_hash') return `Repeat ${operation.id} with the identical arguments (its key is derived from them)`;
  return undefined;
}

/** "Call <read> with {…}" when the verification read can be made without the lost answer. */
function verifyAction(operation: OperationDescriptor, args: CallArgs): string | undefined {
  const verify = operation.verify;
  if (verify === undefined || mentionsResponse(verify.args)) return undefined;
  const shown: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(verify.args)) {
    const ref = typeof value === 'string' && value.startsWith('$args.') ? value.slice('$args.'.length) : undefined;
    const resolved = resolveReference(value, { args });
    shown[name] = ref !== undefined && isSensitivePath(operation, ref) ? REDACTED : resolved === UNRESOLVED ? null : resolved;
  }
  return `Call ${verify.operation} with ${JSON.stringify(shown)} to see whether ${operation.id} was applied`;
}
