import type { Envelope } from '@nodwyn/protocol';
import { transportEnvelope } from './codes.js';
import type { StreamItem, StreamOutcome } from './sse-resume.js';

/** The budgets of `collectStream`, and what it reports per event. */
export interface CollectOptions {
  /** Events kept; the stream is closed after them and the result is `truncated` (default 1000). */
  readonly maxEvents?: number;
  /** UTF-8 bytes of event JSON; past it the collection fails with the events so far (default 4 MiB). */
  readonly maxBytes?: number;
  /** Time for the whole collection, whatever the idle timeout; past it it fails likewise (default 60 000). */
  readonly maxMs?: number;
  /** Called per event collected (e.g. an MCP progress notification); awaited before the next one. */
  readonly onEvent?: (item: StreamItem, progress: { readonly events: number; readonly reconnects: number }) => void | Promise<void>;
  readonly operation?: string;
  readonly plugin?: string;
}

/** A collected stream: every event, or the failure with what was gathered before it. */
export type CollectResult =
  | { readonly ok: true; readonly events: StreamItem[]; readonly truncated: boolean; readonly reconnects: number }
  | { readonly ok: false; readonly envelope: Envelope; readonly partial: StreamItem[] };

/** The stream to collect, or a function opening it with the signal that closes its connection. */
export type CollectSource = AsyncIterable<StreamOutcome> | ((signal: AbortSignal) => AsyncIterable<StreamOutcome>);

/** The collection budgets when the caller sets none (docs/architecture.md §8). */
export const COLLECT_DEFAULTS: { readonly maxEvents: number; readonly maxBytes: number; readonly maxMs: number } = { maxEvents: 1000, maxBytes: 4 * 1024 * 1024, maxMs: 60_000 };

const TIMED_OUT = Symbol('timed out');

/**
 * Collects a stream into a list, bounded (docs/architecture.md §8): after `maxEvents` the stream is
 * closed and the result is `truncated`; past `maxBytes` of event JSON or `maxMs` it fails with
 * UNEXPECTED_RESPONSE (failed_parameter `events`) and the events so far as `partial`. Given a function,
 * the time budget aborts its signal, which closes the connection at once; a plain iterable is closed
 * as soon as its pending read returns.
 */
export async function collectStream(source: CollectSource, options: CollectOptions = {}): Promise<CollectResult> {
  const limits = { ...COLLECT_DEFAULTS, ...definedOf(options) };
  const closer = new AbortController();
  const iterator = (typeof source === 'function' ? source(closer.signal) : source)[Symbol.asyncIterator]();
  const events: StreamItem[] = [];
  let bytes = 0;
  let reconnects = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), limits.maxMs)));
  const fail = (why: string) => ({ ok: false as const, envelope: budgetEnvelope(why, events.length, reconnects, options), partial: events });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), timeout]);
      if (next === TIMED_OUT) return fail(`it ran longer than ${limits.maxMs} ms`);
      if (next.done === true) return { ok: true, events, truncated: false, reconnects };
      const item = next.value;
      reconnects = item.reconnects;
      if ('failure' in item) return { ok: false, envelope: item.failure, partial: events };
      if (events.length >= limits.maxEvents) return { ok: true, events, truncated: true, reconnects };
      bytes += Buffer.byteLength(JSON.stringify(item.value) ?? '', 'utf8');
      if (bytes > limits.maxBytes) return fail(`its events passed ${limits.maxBytes} bytes of JSON`);
      events.push(item);
      await options.onEvent?.(item, { events: events.length, reconnects });
    }
  } finally {
    clearTimeout(timer);
    closer.abort();
    // An aborted source closes at once, so its connection is gone when the result is; a plain iterable
    // closes when its pending read returns, which the result does not wait for.
    const closing = iterator.return?.()?.catch(() => undefined);
    if (typeof source === 'function') await closing;
  }
}

function budgetEnvelope(why: string, count: number, reconnects: number, options: CollectOptions): Envelope {
  return transportEnvelope('STREAM_COLLECT_LIMIT', {
    operation: options.operation,
    plugin: options.plugin,
    attempts: reconnects + 1,
    failed_parameter: 'events',
    expected: 'a stream within the collection budget',
    remediation: `The stream was closed because ${why}; the ${count} events collected before that are the partial result. Narrow the request so the answer is smaller.`,
  });
}

function definedOf(options: CollectOptions): Partial<typeof COLLECT_DEFAULTS> {
  const out: { maxEvents?: number; maxBytes?: number; maxMs?: number } = {};
  if (options.maxEvents !== undefined) out.maxEvents = options.maxEvents;
  if (options.maxBytes !== undefined) out.maxBytes = options.maxBytes;
  if (options.maxMs !== undefined) out.maxMs = options.maxMs;
  return out;
}
