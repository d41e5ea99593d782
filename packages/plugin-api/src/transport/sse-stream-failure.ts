import type { Envelope } from '@nodwyn/protocol';
import { envelope } from '../envelope.js';
import { retryAfterMs } from './backoff.js';
import { transportEnvelope, type TransportCode } from './codes.js';
import { httpFailureEnvelope } from './http-failure.js';
import { scrubServerText } from './provider-error.js';

/** Who a stream belongs to and how it may be repeated, for the envelopes that end it. */
export interface StreamFailureContext {
  readonly operation?: string;
  readonly plugin?: string;
  /** The request changes something on the server. */
  readonly mutation: boolean;
  /** Repeating the request is safe (a read, or a mutation with replay protection). */
  readonly safeToRepeat: boolean;
  /** Reconnects made so far. */
  readonly reconnects: number;
}

/** Why a started stream ended before its end. */
export type StreamDrop = { readonly kind: 'broken'; readonly error: unknown } | { readonly kind: 'incomplete' } | { readonly kind: 'idle'; readonly ms: number };

const who = (context: StreamFailureContext): string => context.plugin ?? 'The server';
const call = (context: StreamFailureContext): string => (context.operation === undefined ? 'the stream' : `the ${context.operation} stream`);

function reconnectNote(context: StreamFailureContext, why: string): string {
  if (context.reconnects > 0) return ` nodwyn reconnected ${context.reconnects} time${context.reconnects === 1 ? '' : 's'}, the most it makes, and it ${why} again.`;
  return '';
}

/**
 * A stream's failure, under the one rule of docs/architecture.md §8: a read fails with the code's own
 * category; a mutation is OUTCOME_UNKNOWN, because whether the server applied it cannot be known, and
 * it may be repeated with the same key only when it has replay protection.
 */
function streamEnvelope(code: TransportCode, context: StreamFailureContext, facts: { remediation: string; http_status?: number; request_id?: string }): Envelope {
  const base = { operation: context.operation, plugin: context.plugin, attempts: context.reconnects + 1, ...facts };
  if (!context.mutation) return transportEnvelope(code, base);
  return envelope({
    ...base,
    code,
    category: 'OUTCOME_UNKNOWN',
    retryable: context.safeToRepeat ? 'same_key_only' : 'after_remediation',
    remediation: `${facts.remediation} The request changes something, so whether ${who(context)} applied it is unknown: check its effect before repeating it${context.safeToRepeat ? ', and repeat it only with the same idempotency key' : ''}.`,
  });
}

/** The final item of a stream that dropped, went idle or ended before its `done` event and could not be resumed. */
export function streamDropEnvelope(drop: StreamDrop, context: StreamFailureContext): Envelope {
  if (drop.kind === 'idle') {
    return streamEnvelope('STREAM_IDLE', context, {
      remediation: `${who(context)} sent nothing on ${call(context)} for ${drop.ms} ms, so nodwyn closed it.${reconnectNote(context, 'went silent')} What arrived was delivered. Try again later.`,
    });
  }
  if (drop.kind === 'incomplete') {
    return streamEnvelope('STREAM_INCOMPLETE', context, {
      remediation: `${who(context)} ended ${call(context)} before its final event.${reconnectNote(context, 'ended early')} What arrived was delivered. Try again later.`,
    });
  }
  const reason = scrubServerText(drop.error instanceof Error ? drop.error.message : String(drop.error), 120);
  return streamEnvelope('STREAM_BROKEN', context, {
    remediation: `The connection of ${call(context)} broke (${reason}).${reconnectNote(context, 'broke')} What arrived was delivered. Try again later.`,
  });
}

/** The envelope of a stream request that failed before any answer: the connection could not be made. */
export function streamOpenFailure(error: unknown, context: StreamFailureContext): Envelope {
  const reason = scrubServerText(error instanceof Error ? error.message : String(error), 120);
  return streamEnvelope('CONNECTION_FAILED', context, {
    remediation: `The request for ${call(context)} failed before any answer arrived (${reason}).${context.reconnects > 0 ? ` It was reconnect ${context.reconnects}.` : ''} Check that the server is up, then try again.`,
  });
}

/** The envelope of an error status to a stream request (the first or a reconnect); its body is read, bounded, for the error code. */
export async function streamStatusFailure(response: Response, context: StreamFailureContext): Promise<Envelope> {
  const body = await boundedBody(response);
  const classified = httpFailureEnvelope({ status: response.status, headers: response.headers, body, provider: context.plugin ?? 'the server', operation: context.operation ?? 'stream' });
  const remediation = `${who(context)} answered HTTP ${response.status} to ${context.reconnects > 0 ? `reconnect ${context.reconnects} of ` : ''}${call(context)}. ${retryAdvice(response)}`;
  if (context.mutation && response.status >= 500) return streamEnvelope('UPSTREAM_ERROR', context, { remediation, http_status: response.status, request_id: classified.request_id ?? undefined });
  return { ...classified, operation: context.operation ?? null, plugin: context.plugin ?? null, remediation };
}

function retryAdvice(response: Response): string {
  const wait = retryAfterMs(response.headers);
  if (response.status === 401 || response.status === 403) return 'Check the credentials bound to this API, then try again.';
  if (response.status >= 500 || response.status === 429) return wait === undefined ? 'Wait a little, then try again.' : `Wait ${Math.max(1, Math.ceil(wait / 1000))} s, then try again.`;
  return 'Check the arguments against the operation, then try again.';
}

/** The envelope of a 2xx answer that is not an event stream. */
export function notEventStreamEnvelope(response: Response, context: StreamFailureContext): Envelope {
  const type = scrubServerText(response.headers.get('content-type') ?? 'none', 80);
  return transportEnvelope('SSE_NOT_EVENT_STREAM', {
    operation: context.operation,
    plugin: context.plugin,
    http_status: response.status,
    attempts: context.reconnects + 1,
    received_value: type,
    expected: 'text/event-stream',
    remediation: `${who(context)} answered ${call(context)} with ${type} instead of an event stream. Check that the URL points at the streaming endpoint.`,
  });
}

/** The envelope of an event larger than the per-event limit; the events before it were delivered. */
export function eventTooLargeEnvelope(index: number, max: number, context: StreamFailureContext): Envelope {
  return transportEnvelope('SSE_EVENT_TOO_LARGE', {
    operation: context.operation,
    plugin: context.plugin,
    attempts: context.reconnects + 1,
    failed_parameter: `events[${index}]`,
    expected: `an event of at most ${max} bytes`,
    remediation: `${who(context)} sent an event larger than ${max} bytes on ${call(context)}, so nodwyn stopped reading there; the events before it were delivered.`,
  });
}

/** The envelope of an event whose data is not JSON. */
export function eventMalformedEnvelope(index: number, event: { readonly event: string; readonly data: string }, context: StreamFailureContext): Envelope {
  return transportEnvelope('SSE_EVENT_MALFORMED', {
    operation: context.operation,
    plugin: context.plugin,
    attempts: context.reconnects + 1,
    failed_parameter: `events[${index}]`,
    received_value: scrubServerText(event.data, 100),
    expected: 'JSON data',
    remediation: `${who(context)} sent a \`${scrubServerText(event.event, 60)}\` event whose data is not JSON on ${call(context)}, so the stream ended there; the events before it were delivered.`,
  });
}

const ERROR_BODY_MAX = 4096;

// Enough of an error body to read its error code; the rest is never read. A body cut while it is read
// is classified by the status and what arrived.
async function boundedBody(response: Response): Promise<unknown> {
  if (response.body === null) return undefined;
  const reader = response.body.getReader();
  let text = '';
  const utf8 = new TextDecoder();
  try {
    while (text.length < ERROR_BODY_MAX) {
      const { done, value } = await reader.read();
      if (done) break;
      text += utf8.decode(value, { stream: true });
    }
  } catch {
    if (text === '') return undefined;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return jsonOrText(text.slice(0, ERROR_BODY_MAX));
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
