import type { Category, Envelope } from '@nodwyn/protocol';
import { envelope, type EnvelopeInit } from '../envelope.js';

/**
 * The envelope codes of the transport runtime (providers, and later the OpenAPI and MCP plugins, raise
 * the same ones), so a front end, a test or a model can tell one failure from another by code alone.
 */
export const TransportCodes = {
  /** The server rejected the request as malformed (400, 422, other 4xx without a more precise code). */
  HTTP_BAD_REQUEST: 'HTTP_BAD_REQUEST',
  /** The conversation does not fit the model's context window. */
  CONTEXT_TOO_LONG: 'CONTEXT_TOO_LONG',
  /** The API key was refused (401). */
  AUTH_INVALID: 'AUTH_INVALID',
  /** The key is valid but may not use this model or endpoint (403). */
  FORBIDDEN: 'FORBIDDEN',
  /** The model or endpoint is unknown (404). */
  NOT_FOUND: 'NOT_FOUND',
  /** The server gave up waiting for the request (408). */
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  /** Too many requests (429). */
  RATE_LIMITED: 'RATE_LIMITED',
  /** The account has no credit or quota left (OpenAI's 429 `insufficient_quota`); waiting does not help. */
  INSUFFICIENT_QUOTA: 'INSUFFICIENT_QUOTA',
  /** The provider is overloaded (Anthropic 529 / `overloaded_error`). */
  OVERLOADED: 'OVERLOADED',
  /** The server failed (5xx). */
  UPSTREAM_ERROR: 'UPSTREAM_ERROR',
  /** The request body is larger than the server accepts (413). */
  REQUEST_TOO_LARGE: 'REQUEST_TOO_LARGE',
  /** An answer with a status no rule covers (1xx, 3xx). */
  UNEXPECTED_STATUS: 'UNEXPECTED_STATUS',
  /** The connection failed before any content arrived: refused, reset, DNS, TLS, socket timeout. */
  CONNECTION_FAILED: 'CONNECTION_FAILED',
  /** The stream broke after content had arrived; it is never replayed automatically. */
  STREAM_BROKEN: 'STREAM_BROKEN',
  /** The body ended before the provider's final event. */
  STREAM_INCOMPLETE: 'STREAM_INCOMPLETE',
  /** An SSE event's data is not the JSON the provider documents. */
  SSE_EVENT_MALFORMED: 'SSE_EVENT_MALFORMED',
  /** An SSE event is larger than the per-event byte limit. */
  SSE_EVENT_TOO_LARGE: 'SSE_EVENT_TOO_LARGE',
  /** The caller aborted the request. */
  CANCELLED: 'CANCELLED',
  /** A provider base URL that is not an http(s) URL, or carries credentials. */
  BASE_URL_INVALID: 'BASE_URL_INVALID',
  /** A plain-http base URL to a host that is not loopback, without `policy.allow_insecure_http`. */
  INSECURE_BASE_URL: 'INSECURE_BASE_URL',
  // Operation runtime (operation-client.ts): preflight, confirmation, unknown outcomes, redirects.
  /** No operation of the client has this id. */
  OPERATION_UNKNOWN: 'OPERATION_UNKNOWN',
  /** The arguments are not one flat object of the operation's parameters (and `body`). */
  ARGS_INVALID: 'ARGS_INVALID',
  /** A required parameter or body is absent. */
  PARAM_MISSING: 'PARAM_MISSING',
  /** A path parameter would make an empty or dot segment ("", ".", ".."), which URL parsing removes. */
  PATH_SEGMENT_INVALID: 'PATH_SEGMENT_INVALID',
  /** A `caller_owned` operation was called without an idempotency key. */
  IDEMPOTENCY_KEY_REQUIRED: 'IDEMPOTENCY_KEY_REQUIRED',
  /** The caller's idempotency key is not a UUID. */
  IDEMPOTENCY_KEY_INVALID: 'IDEMPOTENCY_KEY_INVALID',
  /** A destructive or irreversible operation was called without a preview's confirmation token. */
  CONFIRMATION_TOKEN_REQUIRED: 'CONFIRMATION_TOKEN_REQUIRED',
  /** The token is forged, expired, or was issued for another operation or other arguments. */
  CONFIRMATION_TOKEN_INVALID: 'CONFIRMATION_TOKEN_INVALID',
  /** The token was spent by a call that sent, and this call is not a retry under the same protection. */
  CONFIRMATION_TOKEN_SPENT: 'CONFIRMATION_TOKEN_SPENT',
  /** The runtime cannot know whether the server applied a mutation. */
  OUTCOME_UNKNOWN: 'OUTCOME_UNKNOWN',
  /** The server failed (5xx, or a status the operation calls ambiguous) on a read. */
  OPERATION_UPSTREAM_FAILED: 'OPERATION_UPSTREAM_FAILED',
  /** A redirect the runtime does not follow: any on a mutation, a cross-origin one on a read. */
  REDIRECT_NOT_FOLLOWED: 'REDIRECT_NOT_FOLLOWED',
  /** More than five same-origin redirects on a read. */
  TOO_MANY_REDIRECTS: 'TOO_MANY_REDIRECTS',
  /** One attempt of a read took longer than its timeout. */
  ATTEMPT_TIMEOUT: 'ATTEMPT_TIMEOUT',
  /** A success answer that says JSON but does not parse, or broke off while it was read. */
  RESPONSE_INVALID: 'RESPONSE_INVALID',
  /** A verification read's argument refers to something that does not resolve. */
  VERIFY_REFERENCE_UNRESOLVED: 'VERIFY_REFERENCE_UNRESOLVED',
  /** An answer's body passed the client's `maxResponseBytes` and was not read further. */
  RESPONSE_TOO_LARGE: 'RESPONSE_TOO_LARGE',
  // SSE resume and OAuth2 (docs/architecture.md §8).
  /** A 2xx answer to a stream request that is not text/event-stream. */
  SSE_NOT_EVENT_STREAM: 'SSE_NOT_EVENT_STREAM',
  /** A stream stayed silent (comments included) for its idle timeout and could not be resumed. */
  STREAM_IDLE: 'STREAM_IDLE',
  /** Collecting a stream passed its byte or time budget; the events so far are the partial result. */
  STREAM_COLLECT_LIMIT: 'STREAM_COLLECT_LIMIT',
  /** No OAuth2 token is stored, or one that expired has no refresh token: the person authorizes again. */
  OAUTH_NOT_AUTHORIZED: 'OAUTH_NOT_AUTHORIZED',
  /** The token endpoint refused the code or the refresh token (a 4xx such as invalid_grant). */
  OAUTH_GRANT_REFUSED: 'OAUTH_GRANT_REFUSED',
  /** The token endpoint failed (5xx) or could not be reached. */
  OAUTH_TOKEN_ENDPOINT_FAILED: 'OAUTH_TOKEN_ENDPOINT_FAILED',
  /** The token endpoint answered 2xx with something that is not a valid token response. */
  OAUTH_TOKEN_RESPONSE_INVALID: 'OAUTH_TOKEN_RESPONSE_INVALID',
  /** An authorization or token URL that is not https (plain http is allowed to loopback hosts only). */
  OAUTH_URL_INVALID: 'OAUTH_URL_INVALID',
} as const;

/** A transport envelope code. */
export type TransportCode = keyof typeof TransportCodes;

/** The one category each code travels under, so no two paths raise a code under different categories. */
export const TRANSPORT_CODE_CATEGORY = {
  HTTP_BAD_REQUEST: 'VALIDATION_FAILED',
  CONTEXT_TOO_LONG: 'VALIDATION_FAILED',
  AUTH_INVALID: 'AUTH_FAILED',
  FORBIDDEN: 'PERMISSION_DENIED',
  NOT_FOUND: 'NOT_FOUND',
  REQUEST_TIMEOUT: 'TIMEOUT',
  RATE_LIMITED: 'RATE_LIMITED',
  INSUFFICIENT_QUOTA: 'PRECONDITION_FAILED',
  OVERLOADED: 'UPSTREAM_UNAVAILABLE',
  UPSTREAM_ERROR: 'UPSTREAM_UNAVAILABLE',
  REQUEST_TOO_LARGE: 'LIMIT_EXCEEDED',
  UNEXPECTED_STATUS: 'UNEXPECTED_RESPONSE',
  CONNECTION_FAILED: 'TRANSPORT_FAILED',
  STREAM_BROKEN: 'TRANSPORT_FAILED',
  STREAM_INCOMPLETE: 'TRANSPORT_FAILED',
  SSE_EVENT_MALFORMED: 'UNEXPECTED_RESPONSE',
  SSE_EVENT_TOO_LARGE: 'UNEXPECTED_RESPONSE',
  CANCELLED: 'CANCELLED',
  BASE_URL_INVALID: 'VALIDATION_FAILED',
  INSECURE_BASE_URL: 'VALIDATION_FAILED',
  // Operation runtime.
  OPERATION_UNKNOWN: 'VALIDATION_FAILED',
  ARGS_INVALID: 'VALIDATION_FAILED',
  PARAM_MISSING: 'VALIDATION_FAILED',
  PATH_SEGMENT_INVALID: 'VALIDATION_FAILED',
  IDEMPOTENCY_KEY_REQUIRED: 'VALIDATION_FAILED',
  IDEMPOTENCY_KEY_INVALID: 'VALIDATION_FAILED',
  CONFIRMATION_TOKEN_REQUIRED: 'CONFIRMATION_REQUIRED',
  CONFIRMATION_TOKEN_INVALID: 'CONFIRMATION_REQUIRED',
  CONFIRMATION_TOKEN_SPENT: 'CONFIRMATION_REQUIRED',
  OUTCOME_UNKNOWN: 'OUTCOME_UNKNOWN',
  OPERATION_UPSTREAM_FAILED: 'UPSTREAM_UNAVAILABLE',
  REDIRECT_NOT_FOLLOWED: 'UNEXPECTED_RESPONSE',
  TOO_MANY_REDIRECTS: 'UNEXPECTED_RESPONSE',
  ATTEMPT_TIMEOUT: 'TIMEOUT',
  RESPONSE_INVALID: 'UNEXPECTED_RESPONSE',
  VERIFY_REFERENCE_UNRESOLVED: 'VALIDATION_FAILED',
  RESPONSE_TOO_LARGE: 'LIMIT_EXCEEDED',
  SSE_NOT_EVENT_STREAM: 'UNEXPECTED_RESPONSE',
  // A mutation's stream failures travel as OUTCOME_UNKNOWN instead (sse-stream-failure.ts): whether the
  // server applied it is not known, whatever broke the stream.
  STREAM_IDLE: 'UPSTREAM_UNAVAILABLE',
  STREAM_COLLECT_LIMIT: 'UNEXPECTED_RESPONSE',
  OAUTH_NOT_AUTHORIZED: 'AUTH_FAILED',
  OAUTH_GRANT_REFUSED: 'AUTH_FAILED',
  OAUTH_TOKEN_ENDPOINT_FAILED: 'UPSTREAM_UNAVAILABLE',
  OAUTH_TOKEN_RESPONSE_INVALID: 'UNEXPECTED_RESPONSE',
  OAUTH_URL_INVALID: 'VALIDATION_FAILED',
} as const satisfies Record<TransportCode, Category>;

/** Builds the envelope for a transport `code`, under the one category the code travels with. */
export function transportEnvelope(code: TransportCode, init: Omit<EnvelopeInit, 'category' | 'code'>): Envelope {
  return envelope({ ...init, code, category: TRANSPORT_CODE_CATEGORY[code] });
}
