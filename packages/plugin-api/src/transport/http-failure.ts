import type { Envelope } from '@nodwyn/protocol';
import { retryAfterMs } from './backoff.js';
import { transportEnvelope } from './codes.js';
import { HTTP_REMEDIATION, type HttpFailureCode } from './failure-remediation.js';
import { describeProviderError, isContextTooLong, providerErrorInfo, type ProviderErrorInfo } from './provider-error.js';

/** An HTTP error answer, as a provider saw it. */
export interface HttpFailure {
  readonly status: number;
  readonly headers?: Headers;
  /** The parsed JSON error body, or its text, or undefined. */
  readonly body?: unknown;
  /** Provider id for `plugin` and wording, e.g. 'anthropic'. */
  readonly provider: string;
  /** e.g. 'model.stream'. */
  readonly operation: string;
}

// Statuses whose meaning does not depend on the body (Ollama, for one, calls every error `api_error`).
const BY_STATUS = new Map<number, HttpFailureCode>([
  [401, 'AUTH_INVALID'],
  [402, 'INSUFFICIENT_QUOTA'],
  [403, 'FORBIDDEN'],
  [404, 'NOT_FOUND'],
  [408, 'REQUEST_TIMEOUT'],
  [413, 'REQUEST_TOO_LARGE'],
  [429, 'RATE_LIMITED'],
  [529, 'OVERLOADED'],
]);

// Error types and codes the providers document, for an error event inside a 200 stream.
const BY_NAME = new Map<string, HttpFailureCode>([
  ['authentication_error', 'AUTH_INVALID'],
  ['invalid_api_key', 'AUTH_INVALID'],
  ['permission_error', 'FORBIDDEN'],
  ['not_found_error', 'NOT_FOUND'],
  ['model_not_found', 'NOT_FOUND'],
  ['request_too_large', 'REQUEST_TOO_LARGE'],
  ['rate_limit_error', 'RATE_LIMITED'],
  ['rate_limit_exceeded', 'RATE_LIMITED'],
  ['overloaded_error', 'OVERLOADED'],
  ['invalid_request_error', 'HTTP_BAD_REQUEST'],
]);

const QUOTA_NAMES = new Set(['insufficient_quota', 'billing_error']);

function classify(status: number, info: ProviderErrorInfo): HttpFailureCode {
  if (status !== 429 && isContextTooLong(info)) return 'CONTEXT_TOO_LONG';
  if ([info.code, info.type].some((name) => name !== undefined && QUOTA_NAMES.has(name))) return 'INSUFFICIENT_QUOTA';
  if (status >= 500 && (info.type === 'overloaded_error' || /overloaded/i.test(info.message ?? ''))) return 'OVERLOADED';
  if (status >= 200 && status < 300) return BY_NAME.get(info.code ?? '') ?? BY_NAME.get(info.type ?? '') ?? 'UPSTREAM_ERROR';
  return httpStatusCode(status);
}

/**
 * The code an error status means whatever the body says: the one status table providers and API
 * operations share (docs/architecture.md §8). 5xx → UPSTREAM_ERROR, other 4xx → HTTP_BAD_REQUEST,
 * 1xx/3xx → UNEXPECTED_STATUS.
 */
export function httpStatusCode(status: number): HttpFailureCode {
  const fixed = BY_STATUS.get(status);
  if (fixed !== undefined) return fixed;
  if (status >= 500) return 'UPSTREAM_ERROR';
  if (status >= 400) return 'HTTP_BAD_REQUEST';
  return 'UNEXPECTED_STATUS';
}

/**
 * Maps an HTTP error answer to the envelope: category, code, remediation a model and a person can act on,
 * retryable + retry_after_ms, request_id (from request-id / x-request-id headers), http_status. For an
 * error event inside a streamed 200 answer, pass status 200 and the event's body: its type decides.
 */
export function httpFailureEnvelope(failure: HttpFailure): Envelope {
  const info = providerErrorInfo(failure.body);
  const code = classify(failure.status, info);
  const wait = retryAfterMs(failure.headers);
  const facts = { provider: failure.provider, status: failure.status, detail: describeProviderError(info), retryAfterMs: wait };
  return transportEnvelope(code, {
    operation: failure.operation,
    plugin: failure.provider,
    http_status: failure.status,
    request_id: failure.headers?.get('request-id') ?? failure.headers?.get('x-request-id') ?? undefined,
    retry_after_ms: wait,
    retryable: code === 'REQUEST_TOO_LARGE' ? 'after_remediation' : undefined,
    remediation: HTTP_REMEDIATION[code](facts),
  });
}

const RETRIED_CATEGORIES = new Set(['RATE_LIMITED', 'UPSTREAM_UNAVAILABLE', 'TRANSPORT_FAILED', 'TIMEOUT']);

/**
 * Whether the runtime retries an envelope (before any content): RATE_LIMITED, UPSTREAM_UNAVAILABLE,
 * TRANSPORT_FAILED and TIMEOUT with retryable 'after_delay'.
 */
export function isRetryableFailure(env: Envelope): boolean {
  return env.retryable === 'after_delay' && RETRIED_CATEGORIES.has(env.category);
}
