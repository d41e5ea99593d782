import { EnvelopeError } from '@nodwyn/plugin-api';
import { ActorSchema, LogEventSchema } from '@nodwyn/protocol';
import { LogCodes } from './errors.js';
import { canonicalizeChecked } from './event-hash.js';
import { findJsonProblem, isPlainObject, LONE_SURROGATE } from './json-value.js';

/** What a caller asks the log to append; the log adds session, seq, ts, prev and hash. */
export interface AppendDraft {
  /** Dotted past tense, e.g. `tool.completed`. */
  readonly type: string;
  /** `user`, `model`, `kernel`, `tool:<name>` or `plugin:<name>`. */
  readonly actor: string;
  /** A plain JSON object. Properties set to `undefined` are omitted, as JSON does. */
  readonly payload: Readonly<Record<string, unknown>>;
}

/** A draft that passed validation, with its payload in canonical form. */
export interface PreparedDraft {
  readonly type: string;
  readonly actor: string;
  /** RFC 8785 text, exactly what is stored and hashed. */
  readonly payloadText: string;
  /** The payload parsed back from `payloadText`, so the returned event is what a later read gives. */
  readonly payload: Record<string, unknown>;
}

// The same patterns the protocol schema enforces on a stored event; reused, so the two cannot drift.
const TYPE_PATTERN = LogEventSchema.shape.type;

/** Checks a session id: a non-empty, well-formed string (a lone surrogate has no canonical JSON form). */
export function checkSession(session: unknown, operation: string): string {
  if (typeof session === 'string' && session.length > 0 && !LONE_SURROGATE.test(session)) return session;
  throw new EnvelopeError({
    category: 'VALIDATION_FAILED',
    code: LogCodes.LOG_SESSION_INVALID,
    operation,
    failed_parameter: '$.session',
    received_value: session,
    expected: 'a non-empty string without lone surrogates',
    remediation: 'Pass a session id (a non-empty string).',
  });
}

/** Checks a seq bound of `read`: a safe integer (0 and negatives are allowed and simply match nothing below 1). */
export function checkSeq(value: unknown, parameter: string): number {
  if (Number.isSafeInteger(value)) return value as number;
  throw new EnvelopeError({
    category: 'VALIDATION_FAILED',
    code: LogCodes.LOG_RANGE_INVALID,
    operation: 'log.read',
    failed_parameter: parameter,
    received_value: value,
    expected: 'an integer seq',
    remediation: `Pass ${parameter} as an integer seq (events are numbered from 1).`,
  });
}

/** Validates a batch; the first bad draft fails the whole batch before anything is written. */
export function prepareDrafts(drafts: readonly AppendDraft[]): PreparedDraft[] {
  if (!Array.isArray(drafts)) invalid('$', 'an array of drafts', { value: drafts });
  return drafts.map((draft, i) => prepareDraft(draft, `$[${i}]`));
}

/**
 * Validates one draft and canonicalizes its payload. Throws `VALIDATION_FAILED`/`LOG_DRAFT_INVALID`
 * naming the field; `where` prefixes the path for batch members (`$[3]`).
 */
export function prepareDraft(draft: AppendDraft, where = '$'): PreparedDraft {
  if (typeof draft !== 'object' || draft === null) invalid(where, 'an object { type, actor, payload }', { value: draft });
  if (!TYPE_PATTERN.safeParse(draft.type).success) {
    invalid(`${where}.type`, 'a dotted past-tense event type such as `tool.completed` (lowercase, at least one dot)', { value: draft.type });
  }
  if (!ActorSchema.safeParse(draft.actor).success) {
    invalid(`${where}.actor`, '`user`, `model`, `kernel`, `tool:<name>` or `plugin:<name>`', { value: draft.actor });
  }
  // Payload values are content: the envelope names the spot and the reason, never echoes the value.
  if (!isPlainObject(draft.payload)) invalid(`${where}.payload`, `a plain JSON object, not ${describeKind(draft.payload)}`);
  const payloadText = canonicalPayload(draft.payload, where);
  return { type: draft.type, actor: draft.actor, payloadText, payload: JSON.parse(payloadText) as Record<string, unknown> };
}

function canonicalPayload(payload: Readonly<Record<string, unknown>>, where: string): string {
  let problem: ReturnType<typeof findJsonProblem>;
  try {
    problem = findJsonProblem(payload);
    if (!problem) return canonicalizeChecked(payload);
  } catch (error) {
    // A getter or proxy that throws while being read: the payload cannot be serialized as given.
    const message = error instanceof Error ? error.message : String(error);
    invalid(`${where}.payload`, `plain JSON that can be read without throwing (reading it threw: ${message})`);
  }
  return invalid(`${where}.payload${problem.path.slice(1)}`, `plain JSON, not ${problem.reason}`);
}

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `a ${value.constructor?.name ?? 'non-plain'} object`;
  return `a ${typeof value}`;
}

function invalid(parameter: string, expected: string, received?: { value: unknown }): never {
  throw new EnvelopeError({
    category: 'VALIDATION_FAILED',
    code: LogCodes.LOG_DRAFT_INVALID,
    operation: 'log.append',
    failed_parameter: parameter,
    ...(received ? { received_value: received.value } : {}),
    expected,
    remediation: `${parameter} must be ${expected}. Nothing was appended; fix the draft and append again.`,
  });
}
