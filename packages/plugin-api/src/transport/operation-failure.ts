import type { Category, Envelope } from '@nodwyn/protocol';
import { envelope } from '../envelope.js';
import { retryAfterMs } from './backoff.js';
import { transportEnvelope } from './codes.js';
import type { HttpFailureCode } from './failure-remediation.js';
import { httpStatusCode } from './http-failure.js';
import type { CallArgs } from './operation-preflight.js';
import { unknownOutcomeEnvelope, type ReplayProtection } from './operation-outcome.js';
import type { ErrorMapping, OperationDescriptor } from './operation-types.js';
import { describeProviderError, providerErrorInfo } from './provider-error.js';

/** An error answer, read in full. */
export interface ErrorAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON when the answer said JSON and parsed, else its text. */
  readonly body: unknown;
  readonly json: boolean;
}

/** How one attempt ended when it did not succeed: the envelope to return, and whether a repeat may help. */
export interface AttemptFailure {
  readonly envelope: Envelope;
  /** RATE_LIMITED, UPSTREAM_UNAVAILABLE or TRANSPORT_FAILED as a read would see it: retried when safe. */
  readonly transient: boolean;
}

/** What the classification of an answer needs to know about the call. */
export interface FailureCall {
  readonly operation: OperationDescriptor;
  readonly mutation: boolean;
  readonly protection: ReplayProtection;
  readonly args: CallArgs;
  readonly attempts: number;
}

const TRANSIENT = new Set<Category>(['RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', 'TRANSPORT_FAILED']);
const INDEFINITE = new Set<Category>(['UPSTREAM_UNAVAILABLE', 'OUTCOME_UNKNOWN', 'TRANSPORT_FAILED', 'TIMEOUT']);

/**
 * Classifies an error answer (docs/architecture.md §8). The manifest's mapping (by the body's error
 * code, by a body that is not JSON, by status) comes first, then the status table providers share. A
 * read never reports OUTCOME_UNKNOWN: an ambiguous status or a mapping to it reads as
 * UPSTREAM_UNAVAILABLE, after_delay. On a mutation any 5xx, an ambiguous status and a mapping to
 * OUTCOME_UNKNOWN are OUTCOME_UNKNOWN, unless a mapping says the answer is a definite rejection.
 */
export function errorAnswerFailure(answer: ErrorAnswer, call: FailureCall): AttemptFailure {
  const { operation } = call;
  const info = providerErrorInfo(answer.body);
  const apiCode = answer.json ? (info.code ?? info.type) : undefined;
  const mapping = (apiCode === undefined ? undefined : operation.errors?.codes?.[apiCode]) ?? (answer.json ? undefined : operation.errors?.nonJson) ?? operation.errors?.statuses?.[String(answer.status)];
  const ambiguous = operation.errors?.ambiguousStatuses?.includes(answer.status) ?? false;
  const facts = {
    operation: operation.id,
    http_status: answer.status,
    request_id: requestId(answer.headers),
    retry_after_ms: retryAfterMs(answer.headers),
    attempts: call.attempts,
  };
  const detail = describeProviderError(info);
  const readView = mapping === undefined ? statusEnvelope(answer.status, ambiguous, detail, facts) : mappedEnvelope(mapping, apiCode, detail, facts);
  const transient = readView.retryable === 'after_delay' && TRANSIENT.has(readView.category);
  if (!call.mutation) return { envelope: readView, transient };
  const definite = mapping !== undefined && (mapping.retryable === 'never' || mapping.retryable === 'after_remediation' || !INDEFINITE.has(mapping.category));
  if (definite || (answer.status < 500 && !ambiguous && mapping?.category !== 'OUTCOME_UNKNOWN')) return { envelope: readView, transient };
  const envelope = unknownOutcomeEnvelope(operation, {
    reason: `it answered HTTP ${answer.status}${detail}, which does not say whether the change was made`,
    protection: call.protection,
    args: call.args,
    attempts: call.attempts,
    http_status: answer.status,
    request_id: facts.request_id,
    note: mapping?.remediation,
  });
  return { envelope, transient };
}

type Facts = { operation: string; http_status: number; request_id?: string; retry_after_ms?: number; attempts: number };

function mappedEnvelope(mapping: ErrorMapping, apiCode: string | undefined, detail: string, facts: Facts): Envelope {
  const category = mapping.category === 'OUTCOME_UNKNOWN' ? 'UPSTREAM_UNAVAILABLE' : mapping.category;
  const retryable = mapping.category === 'OUTCOME_UNKNOWN' ? 'after_delay' : mapping.retryable;
  const remediation = mapping.remediation ?? `${facts.operation} answered HTTP ${facts.http_status}${detail}.`;
  const env = envelope({ ...facts, category, code: apiCode ?? '', retryable, remediation });
  return apiCode === undefined ? { ...env, code: null } : env;
}

function statusEnvelope(status: number, ambiguous: boolean, detail: string, facts: Facts): Envelope {
  const code = httpStatusCode(status);
  if (ambiguous || code === 'UPSTREAM_ERROR' || code === 'OVERLOADED') {
    return transportEnvelope('OPERATION_UPSTREAM_FAILED', { ...facts, retryable: 'after_delay', remediation: `${facts.operation} failed on the server's side (HTTP ${status})${detail}. ${wait(facts.retry_after_ms)}.` });
  }
  return transportEnvelope(code, { ...facts, retryable: code === 'REQUEST_TOO_LARGE' ? 'after_remediation' : undefined, remediation: `${facts.operation} answered HTTP ${status}${detail}. ${ADVICE[code](facts.retry_after_ms)}` });
}

function wait(ms: number | undefined): string {
  return ms === undefined ? 'Wait a little, then call it again' : `Wait ${Math.max(1, Math.ceil(ms / 1000))} s (the server's Retry-After), then call it again`;
}

const ADVICE: Readonly<Record<HttpFailureCode, (retryAfter: number | undefined) => string>> = {
  CONTEXT_TOO_LONG: () => 'Fix the arguments the message names, then call it again.',
  HTTP_BAD_REQUEST: () => 'Fix the arguments the message names, then call it again.',
  AUTH_INVALID: () => "The API's credential was refused: check it with `nodwyn secret list` and its binding, then call it again.",
  INSUFFICIENT_QUOTA: () => 'The account has no quota left; calling again does not help until that changes.',
  FORBIDDEN: () => 'The credential may not do this; use one that may, or leave it.',
  NOT_FOUND: () => 'Check the identifiers in the arguments; the resource does not exist, or not at that address.',
  REQUEST_TIMEOUT: (ms) => `${wait(ms)}.`,
  REQUEST_TOO_LARGE: () => 'Send less in one call.',
  RATE_LIMITED: (ms) => `${wait(ms)}.`,
  OVERLOADED: (ms) => `${wait(ms)}.`,
  UPSTREAM_ERROR: (ms) => `${wait(ms)}.`,
  UNEXPECTED_STATUS: () => "That is not an answer of the API; check the operation's server URL.",
};

/** The server's request id, from the headers APIs commonly use. */
export function requestId(headers: Headers): string | undefined {
  return headers.get('request-id') ?? headers.get('x-request-id') ?? undefined;
}
