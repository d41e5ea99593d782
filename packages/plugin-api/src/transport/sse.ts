import { EnvelopeError } from '../envelope.js';
import { transportEnvelope } from './codes.js';
import { scrubServerText } from './provider-error.js';
import { SseDecoder, type SseEvent } from './sse-decoder.js';

export type { SseEvent } from './sse-decoder.js';

/** How `sseEvents` reads a body. */
export interface SseOptions {
  /** Largest event in bytes (default 1 MiB); a larger one ends the stream with UNEXPECTED_RESPONSE, code SSE_EVENT_TOO_LARGE. */
  readonly maxEventBytes?: number;
  readonly provider?: string;
  readonly operation?: string;
}

/** The default per-event byte limit: far above any model delta, far below what could exhaust memory. */
export const DEFAULT_MAX_EVENT_BYTES = 1024 * 1024;

/**
 * Decodes a text/event-stream body: UTF-8 across chunk boundaries (streaming TextDecoder), a leading BOM
 * dropped, CR/LF/CRLF, comments ignored, multi-line data joined with \n, an event left open at the end discarded.
 * An event larger than the limit stops reading (the events before it are delivered, then the envelope is
 * thrown); the body is released whenever the caller stops early or an error is thrown.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, options: SseOptions = {}): AsyncIterable<SseEvent> {
  const max = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const decoder = new SseDecoder(max);
  for await (const chunk of body) {
    yield* decoder.push(chunk);
    if (decoder.overflow) throw new EnvelopeError(eventTooLarge(decoder.count, max, options));
  }
}

function eventTooLarge(index: number, max: number, options: SseOptions) {
  const who = options.provider ?? 'The server';
  return transportEnvelope('SSE_EVENT_TOO_LARGE', {
    operation: options.operation,
    plugin: options.provider,
    failed_parameter: `events[${index}]`,
    expected: `an event of at most ${max} bytes`,
    remediation: `${who} sent an event larger than ${max} bytes, so nodwyn stopped reading the stream there (the events before it were delivered). No model sends such events: check that --base-url points at the provider's API, then send the message again.`,
  });
}

/**
 * JSON.parse of an event's data; a malformed event is an EnvelopeError UNEXPECTED_RESPONSE, code SSE_EVENT_MALFORMED,
 * naming the event type (never quoting more than ~100 chars of the data).
 */
export function parseEventJson(event: SseEvent, context: { provider: string; operation: string }): unknown {
  try {
    return JSON.parse(event.data);
  } catch (error) {
    const type = scrubServerText(event.event, 60);
    const env = transportEnvelope('SSE_EVENT_MALFORMED', {
      operation: context.operation,
      plugin: context.provider,
      failed_parameter: `event ${type}`,
      received_value: scrubServerText(event.data, 100),
      expected: 'JSON data',
      remediation: `${context.provider} sent a \`${type}\` event whose data is not JSON, so the answer cannot be read. Send the message again; if it keeps happening, check that --base-url points at a server that speaks the ${context.provider} API.`,
    });
    throw new EnvelopeError(env, { cause: error });
  }
}
