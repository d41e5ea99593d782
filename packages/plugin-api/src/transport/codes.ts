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
} as const satisfies Record<TransportCode, Category>;

/** Builds the envelope for a transport `code`, under the one category the code travels with. */
export function transportEnvelope(code: TransportCode, init: Omit<EnvelopeInit, 'category' | 'code'>): Envelope {
  return envelope({ ...init, code, category: TRANSPORT_CODE_CATEGORY[code] });
}
