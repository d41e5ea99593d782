import { EnvelopeError, isEnvelopeError, type Envelope } from '@nodwyn/plugin-api';
import { egressError } from './errors.js';
import type { Scrubber } from './scrub.js';

/** What a failed exchange is judged against. */
export interface FailureContext {
  readonly scrub: Scrubber;
  /** The caller's signal: aborted means cancelled. */
  readonly cancel: AbortSignal;
  /** The request's own deadline. */
  readonly deadline: AbortSignal;
  readonly timeoutMs: number;
  readonly host: string;
}

function scrubEnvelope(env: Envelope, scrub: Scrubber): Envelope {
  return {
    ...env,
    remediation: scrub(env.remediation),
    received_value: env.received_value === null ? null : scrub(env.received_value),
    expected: env.expected === null ? null : scrub(env.expected),
  };
}

/** The socket-level reason undici puts under `fetch failed` (ECONNREFUSED, ENOTFOUND, a TLS error). */
function causeOf(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (!(cause instanceof Error)) return error instanceof Error ? error.message : 'unknown error';
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' ? `${code} (${cause.message})` : cause.message;
}

/**
 * Turns a failed exchange into this plugin's envelope. Every text that could echo the request (undici
 * puts a rejected header value in its message; a URL may carry a query secret) goes through the scrubber.
 */
export function transportFailure(error: unknown, context: FailureContext): EnvelopeError {
  const { scrub, host } = context;
  if (isEnvelopeError(error)) return new EnvelopeError(scrubEnvelope(error.envelope, scrub), { cause: error });
  if (context.deadline.aborted) {
    return egressError('HTTP_TIMEOUT', { operation: 'http_request', remediation: `No complete response from ${host} within ${context.timeoutMs} ms. Retry later, or raise timeout_ms (at most 120000).` }, error);
  }
  if (context.cancel.aborted) {
    return egressError('HTTP_CANCELLED', { operation: 'http_request', remediation: `The request to ${host} was cancelled; it may or may not have reached the server.` }, error);
  }
  if (error instanceof TypeError && error.message !== 'fetch failed' && error.cause === undefined) {
    return egressError('HTTP_REQUEST_INVALID', { operation: 'http_request', remediation: scrub(`The request could not be built: ${error.message}. Check the header values and the URL.`) }, error);
  }
  return egressError(
    'HTTP_TRANSPORT_FAILED',
    { operation: 'http_request', remediation: scrub(`Could not complete the exchange with ${host}: ${causeOf(error)}. Check the URL and that the server is up, then retry.`) },
    error,
  );
}
