import type { Envelope } from '@nodwyn/protocol';
import { isEnvelopeError } from '../envelope.js';
import { DEFAULT_MAX_EVENT_BYTES } from './sse.js';
import { SseDecoder, type SseEvent } from './sse-decoder.js';
import {
  eventMalformedEnvelope,
  eventTooLargeEnvelope,
  notEventStreamEnvelope,
  streamDropEnvelope,
  streamOpenFailure,
  streamStatusFailure,
  type StreamDrop,
  type StreamFailureContext,
} from './sse-stream-failure.js';

/** How `resumableStream` opens, resumes and bounds a server-sent event stream. */
export interface ResumableStreamOptions {
  /** Sends the request: once, then once per reconnect, with the last delivered event id from then on. */
  open(lastEventId: string | undefined, signal: AbortSignal): Promise<Response>;
  /** Repeating the request is safe: a read, or a mutation with replay protection (the same key goes out again). */
  readonly safeToRepeat: boolean;
  /** The data value that ends the stream (no item for it); without one a clean end of the body is the end. */
  readonly done?: string;
  /** Reconnects after a drop (default 3; 0 turns resuming off). */
  readonly maxReconnects?: number;
  /** Longest wait before a reconnect, whatever the server's `retry` (default 30 000). */
  readonly reconnectMaxMs?: number;
  /** Silence (comment bytes count as sound) after which the stream is idle; default none. */
  readonly idleTimeoutMs?: number;
  /** Largest event in bytes (default 1 MiB). */
  readonly maxEventBytes?: number;
  /** The caller's cancel: ends the stream for good, without a failure item. */
  readonly signal?: AbortSignal;
  /** For tests: the random source of the reconnect jitter. */
  readonly random?: () => number;
  readonly operation?: string;
  readonly plugin?: string;
  /** The request changes something: its failures after sending are OUTCOME_UNKNOWN. */
  readonly mutation?: boolean;
}

/** One event of a stream, its data parsed as JSON. */
export interface StreamItem {
  readonly value: unknown;
  /** The event type ('message' by default). */
  readonly event: string;
  /** The last event id (it persists across events and over a reconnect until the server changes it). */
  readonly id?: string;
  /** The server's latest reconnection time in ms (it carries over a reconnect). */
  readonly retry?: number;
  /** Reconnects made so far in this stream. */
  readonly reconnects: number;
}

/** What a stream yields: events, then at most one final failure. */
export type StreamOutcome = StreamItem | { readonly failure: Envelope; readonly reconnects: number };

/** The server's reconnection time when it sent none (ms). */
export const DEFAULT_RECONNECT_MS = 250;

const DEFAULTS = { maxReconnects: 3, reconnectMaxMs: 30_000 } as const;

/** How one connection ended. */
type AttemptEnd = { readonly kind: 'done' } | { readonly kind: 'failed'; readonly envelope: Envelope } | StreamDrop;

/** What lives across reconnects: ids delivered, the server's retry, counts. */
interface ResumeState {
  reconnects: number;
  delivered: number;
  lastId: string | undefined;
  retry: number | undefined;
  readonly seen: Set<string>;
  skipping: boolean;
}

/**
 * Reads a server-sent event stream and resumes it (docs/architecture.md §8). A connection that drops
 * after the stream started (a transport error, an idle timeout, or a clean end before the declared `done`)
 * is reconnected with Last-Event-ID, when the request is safe to repeat and there is an id to resume from
 * (or nothing was delivered yet), after the server's `retry` capped and shortened by up to 25 % at random.
 * Events the server replays after a reconnect are skipped until the first new one. Everything before the
 * first byte of a 2xx event stream, a reconnect's failure, and a drop that cannot be resumed are one final
 * `failure` item; the caller's abort, or leaving the loop, closes the connection without one.
 */
export async function* resumableStream(options: ResumableStreamOptions): AsyncIterable<StreamOutcome> {
  const state: ResumeState = { reconnects: 0, delivered: 0, lastId: undefined, retry: undefined, seen: new Set(), skipping: false };
  const maxReconnects = Math.max(0, Math.floor(options.maxReconnects ?? DEFAULTS.maxReconnects));
  const context = (): StreamFailureContext => contextOf(options, state);
  for (;;) {
    const attempt = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, attempt.signal]) : attempt.signal;
    try {
      const opened = await openStream(options, state.lastId, signal, context());
      if (options.signal?.aborted) return;
      if ('envelope' in opened) {
        yield { failure: opened.envelope, reconnects: state.reconnects };
        return;
      }
      const end = yield* readConnection(opened.body, options, state, attempt);
      if (options.signal?.aborted || end.kind === 'done') return;
      if (end.kind === 'failed') {
        yield { failure: end.envelope, reconnects: state.reconnects };
        return;
      }
      const canResume = options.safeToRepeat && state.reconnects < maxReconnects && (state.lastId !== undefined || state.delivered === 0);
      if (!canResume) {
        yield { failure: streamDropEnvelope(end, context()), reconnects: state.reconnects };
        return;
      }
    } finally {
      attempt.abort();
    }
    if (!(await pause(reconnectDelay(state.retry, options), options.signal))) return;
    state.reconnects += 1;
    state.skipping = state.seen.size > 0;
  }
}

/** The wait before a reconnect: the server's retry (default 250 ms), capped, shortened by up to 25 %. */
function reconnectDelay(retry: number | undefined, options: ResumableStreamOptions): number {
  const cap = Math.max(0, options.reconnectMaxMs ?? DEFAULTS.reconnectMaxMs);
  const random = Math.min(1, Math.max(0, (options.random ?? Math.random)()));
  return Math.floor(Math.min(retry ?? DEFAULT_RECONNECT_MS, cap) * (1 - 0.25 * random));
}

/** Sends one request; the body of a 2xx event stream, or the envelope that ends the stream. */
async function openStream(
  options: ResumableStreamOptions,
  lastId: string | undefined,
  signal: AbortSignal,
  context: StreamFailureContext,
): Promise<{ readonly body: ReadableStream<Uint8Array> | null } | { readonly envelope: Envelope }> {
  let response: Response;
  try {
    response = await options.open(lastId, signal);
  } catch (error) {
    return { envelope: isEnvelopeError(error) ? error.envelope : streamOpenFailure(error, context) };
  }
  if (response.status < 200 || response.status > 299) return { envelope: await streamStatusFailure(response, context) };
  if (!isEventStream(response.headers.get('content-type'))) {
    await response.body?.cancel().catch(() => undefined);
    return { envelope: notEventStreamEnvelope(response, context) };
  }
  return { body: response.body };
}

function isEventStream(contentType: string | null): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}

/**
 * Reads one connection's body and yields its new events. The idle timer runs only while waiting for the
 * server (not while the caller holds an item), and cancels the read when it fires.
 */
async function* readConnection(
  body: ReadableStream<Uint8Array> | null,
  options: ResumableStreamOptions,
  state: ResumeState,
  attempt: AbortController,
): AsyncGenerator<StreamItem, AttemptEnd> {
  if (body === null) return options.done === undefined ? { kind: 'done' } : { kind: 'incomplete' };
  const max = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const decoder = new SseDecoder(max);
  const reader = body.getReader();
  const idleMs = options.idleTimeoutMs;
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = (): void => void reader.cancel().catch(() => undefined);
  options.signal?.addEventListener('abort', stop, { once: true });
  let ownId = false;
  try {
    for (;;) {
      if (idleMs !== undefined) timer = setTimeout(() => ((idle = true), attempt.abort(), stop()), idleMs);
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        return idle ? { kind: 'idle', ms: idleMs ?? 0 } : { kind: 'broken', error };
      } finally {
        clearTimeout(timer);
      }
      if (idle) return { kind: 'idle', ms: idleMs ?? 0 };
      if (chunk.done) return options.done === undefined ? { kind: 'done' } : { kind: 'incomplete' };
      for (const event of decoder.push(chunk.value)) {
        ownId ||= event.lastEventId !== '';
        const next = accept(event, ownId, options, state);
        if (next === undefined) continue;
        if ('kind' in next) return next;
        yield next;
      }
      state.retry = decoder.reconnectionTime ?? state.retry;
      if (decoder.overflow) return { kind: 'failed', envelope: eventTooLargeEnvelope(state.delivered, max, contextOf(options, state)) };
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    stop();
  }
}

/**
 * One decoded event: skipped (a replay after a reconnect), the end (`done`), a failure (data not JSON),
 * or the item to deliver. `ownId` says whether this connection sent an id yet; until it does, events
 * carry the id delivered before the reconnect.
 */
function accept(event: SseEvent, ownId: boolean, options: ResumableStreamOptions, state: ResumeState): StreamItem | AttemptEnd | undefined {
  const id = ownId ? event.lastEventId || undefined : state.lastId;
  state.retry = event.retry ?? state.retry;
  if (state.skipping) {
    if (ownId && id !== undefined && state.seen.has(id)) return undefined;
    state.skipping = false;
  }
  if (options.done !== undefined && event.data === options.done) return { kind: 'done' };
  let value: unknown;
  try {
    value = JSON.parse(event.data);
  } catch {
    return { kind: 'failed', envelope: eventMalformedEnvelope(state.delivered, event, contextOf(options, state)) };
  }
  state.delivered += 1;
  state.lastId = id;
  if (id !== undefined) state.seen.add(id);
  return { value, event: event.event, reconnects: state.reconnects, ...(id === undefined ? {} : { id }), ...(state.retry === undefined ? {} : { retry: state.retry }) };
}

function contextOf(options: ResumableStreamOptions, state: ResumeState): StreamFailureContext {
  return { operation: options.operation, plugin: options.plugin, mutation: options.mutation ?? false, safeToRepeat: options.safeToRepeat, reconnects: state.reconnects };
}

/** Waits `ms`; false when the caller aborted first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      resolve(ok);
    };
    const aborted = (): void => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
