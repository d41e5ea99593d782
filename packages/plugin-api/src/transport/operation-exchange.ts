import type { Envelope } from '@nodwyn/protocol';
import type { OutgoingRequest } from '../egress.js';
import { isEnvelopeError } from '../envelope.js';
import { isAbortError } from './network-failure.js';
import { scrubServerText } from './provider-error.js';
import type { OperationFetch } from './operation-types.js';

/** Most same-origin redirects a read follows. */
export const MAX_READ_REDIRECTS = 5;

/** How one exchange (a request and, for a read, its same-origin redirects) ended. */
export type Exchange =
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Headers; readonly text: string }
  /** A 2xx event stream, its body unread (only when asked for). */
  | { readonly kind: 'stream'; readonly status: number; readonly response: Response }
  /** A redirect the runtime did not follow: any on a mutation, a cross-origin one or the sixth on a read. */
  | { readonly kind: 'redirect'; readonly status: number; readonly headers: Headers; readonly location: string; readonly tooMany: boolean }
  /** The body passed `maxBytes`; the rest was not read. */
  | { readonly kind: 'too-large'; readonly status: number; readonly maxBytes: number }
  /** The status line arrived, the body broke off. */
  | { readonly kind: 'body-lost'; readonly status: number; readonly headers: Headers; readonly reason: string }
  /** No answer. `written` false only when the failure shows the request never left (refused, DNS, TLS). */
  | { readonly kind: 'failed'; readonly written: boolean; readonly reason: string }
  /** The caller's fetch refused the request with an envelope (the egress guard, a missing secret). */
  | { readonly kind: 'refused'; readonly envelope: Envelope }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Failures that happen before the request is written: connecting (refused, unreachable, no route), name
 * resolution and the TLS handshake. Everything else (a reset, undici's "other side closed"
 * UND_ERR_SOCKET, a headers timeout) may come after the server received the request, so a mutation's
 * outcome is then unknown (docs/architecture.md §8).
 */
const BEFORE_WRITE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_INVALID_ARG',
  'ERR_INVALID_URL',
]);

/** How one exchange is made. */
export interface ExchangeOptions {
  /** A read follows same-origin redirects; a mutation follows none. */
  readonly read: boolean;
  /** The caller's signal: aborted means cancelled. */
  readonly signal: AbortSignal;
  /** Time for the request and its answer (for a stream: until the answer's head arrived). */
  readonly timeoutMs: number;
  /** Most bytes of an answer's body read; past them the exchange ends as `too-large`. */
  readonly maxBytes: number;
  /** Hand a 2xx text/event-stream answer over unread, for the caller to consume. */
  readonly stream?: boolean;
}

/**
 * Sends `request` through the caller's fetch, which must not follow redirects. A read follows
 * same-origin redirects itself (at most five; a 303 becomes a GET), with the same headers, since
 * fetch's own following would carry credential headers to another origin; a mutation follows none.
 * The answer's body is read within the same deadline, except an event stream's.
 */
export async function exchange(fetch: OperationFetch, request: OutgoingRequest, options: ExchangeOptions): Promise<Exchange> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  try {
    return await exchangeWithin(fetch, request, options, deadline.signal, () => clearTimeout(timer));
  } finally {
    clearTimeout(timer);
  }
}

async function exchangeWithin(fetch: OperationFetch, request: OutgoingRequest, options: ExchangeOptions, deadline: AbortSignal, headArrived: () => void): Promise<Exchange> {
  const { signal } = options;
  const both = AbortSignal.any([signal, deadline]);
  let current = request;
  for (let redirects = 0; ; redirects += 1) {
    let response: Response;
    try {
      response = await fetch(current, both);
    } catch (error) {
      return failure(error, signal, deadline);
    }
    const location = response.headers.get('location');
    if (REDIRECTS.has(response.status) && location !== null) {
      await response.body?.cancel().catch(() => undefined);
      const next = URL.canParse(location, current.url) ? new URL(location, current.url) : undefined;
      const followable = options.read && next !== undefined && next.origin === new URL(current.url).origin;
      if (!followable || redirects === MAX_READ_REDIRECTS) {
        return { kind: 'redirect', status: response.status, headers: response.headers, location: next?.href ?? location, tooMany: followable };
      }
      current = { method: response.status === 303 && current.method !== 'HEAD' ? 'GET' : current.method, url: next.href, headers: current.headers };
      continue;
    }
    if (options.stream === true && response.ok && isEventStream(response.headers)) {
      headArrived();
      return { kind: 'stream', status: response.status, response };
    }
    try {
      const text = await boundedText(response, options.maxBytes);
      if (text === undefined) return { kind: 'too-large', status: response.status, maxBytes: options.maxBytes };
      return { kind: 'answer', status: response.status, headers: response.headers, text };
    } catch (error) {
      const ended = failure(error, signal, deadline);
      if (ended.kind !== 'failed') return ended;
      return { kind: 'body-lost', status: response.status, headers: response.headers, reason: ended.reason };
    }
  }
}

/**
 * The body as UTF-8 text, or undefined once it passes `maxBytes` (a declared Content-Length above it is
 * not read at all): a hostile or broken server cannot fill the process's memory.
 */
async function boundedText(response: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    return declared > maxBytes ? undefined : '';
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Whether an answer is an event stream (any parameters after the media type). */
export function isEventStream(headers: Headers): boolean {
  return /^\s*text\/event-stream\s*(?:;|$)/i.test(headers.get('content-type') ?? '');
}

function failure(error: unknown, signal: AbortSignal, deadline: AbortSignal): Exchange {
  if (signal.aborted) return { kind: 'cancelled' };
  if (deadline.aborted) return { kind: 'timeout' };
  if (isEnvelopeError(error) && error.envelope.category !== 'TRANSPORT_FAILED') return { kind: 'refused', envelope: error.envelope };
  if (isAbortError(error)) return { kind: 'cancelled' };
  const codes = errorCodes(error);
  const unbuilt = error instanceof TypeError && error.message !== 'fetch failed' && error.cause === undefined;
  const written = !unbuilt && !codes.some((code) => BEFORE_WRITE.has(code) || /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code));
  return { kind: 'failed', written, reason: describe(error, codes) };
}

/** The system codes along a cause chain, AggregateError members included (Node tries each address of a host). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const queue: unknown[] = [error];
  for (let seen = 0; queue.length > 0 && seen < 16; seen++) {
    const current = queue.shift();
    if (!(current instanceof Error)) continue;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    queue.push(current.cause);
    if (current instanceof AggregateError) queue.push(...current.errors);
  }
  return codes;
}

function describe(error: unknown, codes: readonly string[]): string {
  let message = error instanceof Error ? error.message : 'unknown error';
  for (let current = error; current instanceof Error; current = current.cause) if (current.message !== '') message = current.message;
  const code = codes[0];
  return scrubServerText(code === undefined || message.includes(code) ? message : `${code}: ${message}`, 160);
}
