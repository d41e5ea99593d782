import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject } from '../schema-refs.js';
import type { Fault } from './fault-spec.js';
import { generated, type Answer } from './mock-answer.js';
import type { MockRoute } from './mock-routes.js';

/** What every answer of one mock shares. */
export interface AnswerContext {
  readonly document: JsonObject;
  readonly seed: number;
}

const EVENTS_DEFAULT = 5;
const INTERVAL_DEFAULT_MS = 5;

/** A small seeded generator (mulberry32): the same seed answers the same values. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Answers a non-streamed operation with its generated body (none for 204 or a response without content). */
export function answerJson(context: AnswerContext, answer: Answer, response: ServerResponse, call: number, head: boolean): void {
  const value = generated(context.document, answer.media, call);
  if (value === undefined || answer.contentType === undefined) {
    response.writeHead(answer.status);
    response.end();
    return;
  }
  const text = /json/i.test(answer.contentType) ? JSON.stringify(value) : String(value);
  response.writeHead(answer.status, { 'content-type': answer.contentType, 'content-length': Buffer.byteLength(text) });
  response.end(head ? undefined : text);
}

function write(response: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => response.write(text, () => resolve()));
}

/**
 * Streams generated server-sent events: numbered ids from 1 to `x-mock-events` (default 5), starting
 * after a numeric `Last-Event-ID`, then the done sentinel (no id) when the document declares one
 * (`x-mock-done`, else `x-agent.stream.done`), else a clean end. `drop-after=N` breaks the connection
 * after N events of this connection, `stall-after=N` goes silent for `ms` first (less when the client
 * leaves); `retry` opens the stream with a `retry:` line (seed 003, "Mock").
 */
export async function answerStream(context: AnswerContext, route: MockRoute, answer: Answer, request: IncomingMessage, response: ServerResponse, fault: Fault | undefined): Promise<void> {
  const media = answer.media ?? {};
  const total = typeof media['x-mock-events'] === 'number' ? media['x-mock-events'] : EVENTS_DEFAULT;
  const interval = typeof media['x-mock-interval-ms'] === 'number' ? media['x-mock-interval-ms'] : INTERVAL_DEFAULT_MS;
  const xAgent = route.operation['x-agent'] as { stream?: { done?: unknown } } | undefined;
  const done = typeof media['x-mock-done'] === 'string' ? media['x-mock-done'] : typeof xAgent?.stream?.done === 'string' ? xAgent.stream.done : undefined;
  const last = Number(request.headers['last-event-id']);
  const start = Number.isInteger(last) && last >= 0 ? last + 1 : 1;
  const random = seeded(context.seed + start);
  const breaking = fault?.kind === 'drop-after' || fault?.kind === 'stall-after' ? fault : undefined;
  response.writeHead(answer.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  if (breaking?.retry !== undefined) await write(response, `retry: ${breaking.retry}\n\n`);
  let sent = 0;
  for (let id = start; id <= total; id += 1) {
    if (response.destroyed) return;
    if (breaking && sent >= breaking.events) {
      if (breaking.kind === 'stall-after') await silence(response, breaking.ms);
      response.socket?.destroy();
      return;
    }
    const value = generated(context.document, { ...media, 'x-mock-sequence': undefined }, id);
    const data = typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, seq: id, salt: Math.floor(random() * 1e6) } : { seq: id, value };
    await write(response, `id: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
    sent += 1;
    if (interval > 0) await new Promise((resolve) => setTimeout(resolve, interval));
  }
  if (done !== undefined) await write(response, `data: ${done}\n\n`);
  response.end();
}

/** Waits `ms`, or less when the client closes the connection first. */
function silence(response: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      response.off('close', finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    response.once('close', finish);
  });
}
