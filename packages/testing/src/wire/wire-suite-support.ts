import { isEnvelopeError, type Envelope, type ModelProvider, type ModelRequest, type ModelStreamEvent, type RetryBudget, type ToolSpec } from '@nodwyn/plugin-api';
import { retryBudget } from '@nodwyn/plugin-api/transport';
import { EnvelopeSchema } from '@nodwyn/protocol';
import { expect } from 'vitest';
import { drainStream, type StreamOutcome } from '../drain-stream.js';
import { WIRE_CODECS } from './wire-codecs.js';
import type { WireDialect, WireStreamReply } from './wire-reply.js';

/** The one tool every conformance request offers. */
export const READ_FILE_TOOL: ToolSpec = {
  name: 'read_file',
  description: 'Reads a UTF-8 file of the workspace.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

/** The request every scenario sends: one user message, one tool, the global fetch, a retry budget. */
export function wireRequest(retries: RetryBudget = retryBudget(10)): ModelRequest {
  return { session: 'wire-conformance', messages: [{ role: 'user', text: 'hi' }], tools: [READ_FILE_TOOL], fetch: globalThis.fetch.bind(globalThis), retries };
}

/** Drains a provider's stream, keeping what arrived and the failure, if any; `onEvent` sees each event as it arrives. */
export function drain(provider: ModelProvider, request: ModelRequest, signal: AbortSignal, onEvent?: (event: ModelStreamEvent) => void): Promise<StreamOutcome> {
  return drainStream(provider.stream(request, signal), onEvent);
}

/** The text deltas of a stream, in order. */
export function texts(events: readonly ModelStreamEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'text' ? [e.text] : []));
}

/** The events of one type. */
export function ofType<K extends ModelStreamEvent['type']>(events: readonly ModelStreamEvent[], type: K): Extract<ModelStreamEvent, { type: K }>[] {
  return events.filter((e): e is Extract<ModelStreamEvent, { type: K }> => e.type === type);
}

/** A finished stream: no failure, exactly one `stop`, last, with `reason`; usage, if any, once and right before it. */
export function expectFinished(outcome: StreamOutcome, reason: string): void {
  expect(outcome.error, 'the stream failed').toBeUndefined();
  const stops = ofType(outcome.events, 'stop');
  expect(stops).toEqual([{ type: 'stop', reason }]);
  expect(outcome.events.at(-1)?.type).toBe('stop');
  const usage = outcome.events.findIndex((e) => e.type === 'usage');
  expect(ofType(outcome.events, 'usage').length).toBeLessThanOrEqual(1);
  if (usage >= 0) expect(usage).toBe(outcome.events.length - 2);
}

/** A failed stream: an EnvelopeError whose envelope is schema-valid, of `category` and one of `codes`; no `stop`. */
export function expectFailure(outcome: StreamOutcome, category: Envelope['category'], codes: readonly string[]): Envelope {
  expect(isEnvelopeError(outcome.error), `expected an EnvelopeError, got ${String(outcome.error)}`).toBe(true);
  const envelope = (outcome.error as { envelope: Envelope }).envelope;
  expect(EnvelopeSchema.safeParse(envelope).success, 'the envelope does not parse').toBe(true);
  expect(envelope.category).toBe(category);
  expect(codes).toContain(envelope.code);
  expect(ofType(outcome.events, 'stop')).toEqual([]);
  return envelope;
}

/** Indexes of a reply's text-delta events on the wire, to aim faults just after content. */
export function textEventIndexes(dialect: WireDialect, reply: WireStreamReply): number[] {
  const context = { requestId: 'req_0', model: 'wire-model', body: { stream: true, stream_options: { include_usage: true } }, created: 0 };
  return WIRE_CODECS[dialect].streamEvents(reply, context).flatMap((event, index) => (event.text ? [index] : []));
}

/** Waits for `promise`, failing after `ms` instead of hanging the suite. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
