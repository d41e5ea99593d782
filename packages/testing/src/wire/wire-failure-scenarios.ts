import { retryBudget } from '@nodwyn/plugin-api/transport';
import { expect } from 'vitest';
import type { WireDialect, WireErrorReply, WireStreamReply } from './wire-reply.js';
import type { WireScenario } from './wire-scenario.js';
import { drain, expectFailure, expectFinished, ofType, textEventIndexes, texts, wireRequest } from './wire-suite-support.js';

const OK: WireStreamReply = { kind: 'stream', text: ['ok'] };
/** A reply the provider must never reach: it proves a failure was not retried or replayed. */
const SPARE: WireStreamReply = { kind: 'stream', text: ['replayed'] };
const PARTIAL = ['par', 'tial', ' answer'];

/** Each provider's way of saying "wait": Anthropic sends whole seconds, OpenAI also `retry-after-ms`, which wins. */
function rateLimited(dialect: WireDialect): { reply: WireErrorReply; delayMs: number } {
  return dialect === 'anthropic'
    ? { reply: { kind: 'error', status: 429, headers: { 'retry-after': '0' } }, delayMs: 0 }
    : { reply: { kind: 'error', status: 429, headers: { 'retry-after-ms': '20', 'retry-after': '0' } }, delayMs: 20 };
}

function contextTooLong(dialect: WireDialect): WireErrorReply {
  return dialect === 'anthropic'
    ? { kind: 'error', status: 400, errorType: 'invalid_request_error', message: 'prompt is too long: 215000 tokens > 200000 maximum' }
    : { kind: 'error', status: 400, errorType: 'context_length_exceeded', message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 131000 tokens. Please reduce the length of the messages." };
}

/** The wire index of a reply's `n`th text delta. */
function textEvent(dialect: WireDialect, reply: WireStreamReply, n: number): number {
  const index = textEventIndexes(dialect, reply)[n];
  if (index === undefined) throw new Error(`the reply has no text delta ${n}`);
  return index;
}

/** A stream of PARTIAL whose fault sits right after the first text delta. */
function faulty(dialect: WireDialect, fault: 'resetAfterEvents' | 'cutMidEventAfter' | 'malformedAt'): WireStreamReply {
  const reply: WireStreamReply = { kind: 'stream', text: PARTIAL };
  const at = fault === 'resetAfterEvents' ? textEvent(dialect, reply, 0) + 1 : textEvent(dialect, reply, 1);
  return { ...reply, faults: { [fault]: at } };
}

/** Scenarios of failures: what is retried (and how often), what is not, and the envelope each ends in. */
export const FAILURE_SCENARIOS: readonly WireScenario[] = [
  {
    name: 'retries a 429 after the server’s retry-after, with one retry event, then streams',
    async run(t) {
      const { reply, delayMs } = rateLimited(t.dialect);
      const { server, provider } = await t.serve([reply, OK]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      expectFinished(outcome, 'end_turn');
      const retries = ofType(outcome.events, 'retry');
      expect(retries).toHaveLength(1);
      expect(retries[0]!.delayMs).toBe(delayMs);
      expect(outcome.events.findIndex((e) => e.type === 'retry')).toBeLessThan(outcome.events.findIndex((e) => e.type === 'text'));
      expect(texts(outcome.events)).toEqual(['ok']);
      expect(server.requests).toHaveLength(2);
    },
  },
  {
    name: 'retries an overloaded answer (Anthropic 529 overloaded_error, OpenAI 503), then streams',
    async run(t) {
      const { server, provider } = await t.serve([{ kind: 'error', status: t.dialect === 'anthropic' ? 529 : 503 }, OK]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      expectFinished(outcome, 'end_turn');
      expect(ofType(outcome.events, 'retry')).toHaveLength(1);
      expect(texts(outcome.events)).toEqual(['ok']);
      expect(server.requests).toHaveLength(2);
    },
  },
  {
    name: 'gives up on a 500 after max_attempts with UPSTREAM_UNAVAILABLE counting the attempts',
    async run(t) {
      const error: WireErrorReply = { kind: 'error', status: 500 };
      const { server, provider } = await t.serve([error, error, error, SPARE], { max_attempts: '3' });
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      const envelope = expectFailure(outcome, 'UPSTREAM_UNAVAILABLE', ['UPSTREAM_ERROR']);
      expect([envelope.trace.attempts, envelope.http_status, envelope.request_id]).toEqual([3, 500, server.requests[2]?.requestId]);
      expect(ofType(outcome.events, 'retry')).toHaveLength(2);
      expect(texts(outcome.events)).toEqual([]);
      expect(server.requests).toHaveLength(3);
    },
  },
  {
    name: 'retries a connection reset before the first byte, then streams',
    async run(t) {
      const { server, provider } = await t.serve([{ kind: 'reset' }, OK]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      expectFinished(outcome, 'end_turn');
      expect(ofType(outcome.events, 'retry')).toHaveLength(1);
      expect(texts(outcome.events)).toEqual(['ok']);
      expect(server.requests).toHaveLength(2);
    },
  },
  {
    name: 'keeps the text that arrived when the connection drops after content, and never replays (STREAM_BROKEN)',
    async run(t) {
      const { server, provider } = await t.serve([faulty(t.dialect, 'resetAfterEvents'), SPARE]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      expectFailure(outcome, 'TRANSPORT_FAILED', ['STREAM_BROKEN']);
      expect(texts(outcome.events)).toEqual(['par']);
      expect(ofType(outcome.events, 'retry')).toEqual([]);
      expect(server.requests).toHaveLength(1);
    },
  },
  {
    name: 'fails a stream cut in the middle of an event with TRANSPORT_FAILED, keeping what arrived, without replay',
    async run(t) {
      const { server, provider } = await t.serve([faulty(t.dialect, 'cutMidEventAfter'), SPARE]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      expectFailure(outcome, 'TRANSPORT_FAILED', ['STREAM_BROKEN', 'STREAM_INCOMPLETE']);
      expect(texts(outcome.events)).toEqual(['par']);
      expect(server.requests).toHaveLength(1);
    },
  },
  {
    name: 'fails on a malformed event with UNEXPECTED_RESPONSE SSE_EVENT_MALFORMED, without replay',
    async run(t) {
      const { server, provider } = await t.serve([faulty(t.dialect, 'malformedAt'), SPARE]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      expectFailure(outcome, 'UNEXPECTED_RESPONSE', ['SSE_EVENT_MALFORMED']);
      expect(texts(outcome.events)).toEqual(['par']);
      expect(server.requests).toHaveLength(1);
    },
  },
  {
    name: 'answers a 401 with AUTH_FAILED AUTH_INVALID after one request, carrying the request id',
    async run(t) {
      const { server, provider } = await t.serve([{ kind: 'error', status: 401 }, SPARE]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      const envelope = expectFailure(outcome, 'AUTH_FAILED', ['AUTH_INVALID']);
      expect([envelope.http_status, envelope.request_id]).toEqual([401, server.requests[0]?.requestId]);
      expect(server.requests).toHaveLength(1);
    },
  },
  {
    name: 'answers a context-too-long 400 with VALIDATION_FAILED CONTEXT_TOO_LONG after one request',
    async run(t) {
      const { server, provider } = await t.serve([contextTooLong(t.dialect), SPARE]);
      const outcome = await drain(provider, wireRequest(), new AbortController().signal);
      const envelope = expectFailure(outcome, 'VALIDATION_FAILED', ['CONTEXT_TOO_LONG']);
      expect(envelope.http_status).toBe(400);
      expect(server.requests).toHaveLength(1);
    },
  },
  {
    name: 'does not retry a 429 when the turn’s retry budget is spent: RATE_LIMITED with retry_after_ms',
    async run(t) {
      const reply: WireErrorReply = { kind: 'error', status: 429, headers: t.dialect === 'anthropic' ? { 'retry-after': '2' } : { 'retry-after-ms': '1500', 'retry-after': '2' } };
      const { server, provider } = await t.serve([reply, SPARE], { retry_max_ms: '5000' });
      const outcome = await drain(provider, wireRequest(retryBudget(0)), new AbortController().signal);
      const envelope = expectFailure(outcome, 'RATE_LIMITED', ['RATE_LIMITED']);
      expect([envelope.http_status, envelope.retry_after_ms]).toEqual([429, t.dialect === 'anthropic' ? 2000 : 1500]);
      expect(ofType(outcome.events, 'retry')).toEqual([]);
      expect(server.requests).toHaveLength(1);
    },
  },
];
