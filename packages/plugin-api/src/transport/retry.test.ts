import type { Envelope } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { EnvelopeError, isEnvelopeError } from '../envelope.js';
import { httpFailureEnvelope } from './http-failure.js';
import { retryingStream, type RetryingStreamOptions } from './retry.js';
import { retryBudget } from './retry-types.js';
import { parseEventJson } from './sse.js';

type Item = string | { notice: { attempt: number; delayMs: number; reason: string } };

/** One attempt: items to yield, then an optional failure. */
interface Step {
  readonly items?: readonly string[];
  readonly fail?: unknown;
}

const http = (status: number, headers: Record<string, string> = {}) =>
  new EnvelopeError(httpFailureEnvelope({ status, headers: new Headers(headers), provider: 'anthropic', operation: 'model.stream' }));
const reset = () => new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });

function scripted(steps: readonly Step[]) {
  const calls: number[] = [];
  async function* attempt(n: number): AsyncIterable<string> {
    calls.push(n);
    const step = steps[n - 1] ?? {};
    for (const item of step.items ?? []) yield item;
    if (step.fail !== undefined) throw step.fail;
  }
  return { attempt, calls };
}

function options(overrides: Partial<RetryingStreamOptions<Item>> = {}): RetryingStreamOptions<Item> {
  return {
    policy: { maxAttempts: 4, baseMs: 10, maxMs: 1_000 },
    budget: retryBudget(10),
    signal: new AbortController().signal,
    provider: 'anthropic',
    operation: 'model.stream',
    notice: (notice) => ({ notice }),
    random: () => 0,
    ...overrides,
  };
}

async function run(steps: readonly Step[], overrides: Partial<RetryingStreamOptions<Item>> = {}) {
  const { attempt, calls } = scripted(steps);
  const items: Item[] = [];
  let failure: Envelope | undefined;
  try {
    for await (const item of retryingStream<Item>(attempt, options(overrides))) items.push(item);
  } catch (error) {
    if (!isEnvelopeError(error)) throw error;
    failure = error.envelope;
  }
  return { items, calls, failure };
}

describe('retryingStream', () => {
  it('retries a failure before content after the server retry-after and yields a notice first', async () => {
    const budget = retryBudget(5);
    const result = await run([{ fail: http(429, { 'retry-after-ms': '3' }) }, { items: ['a', 'b'] }], { budget });
    expect(result.items).toEqual([{ notice: { attempt: 2, delayMs: 3, reason: 'RATE_LIMITED (HTTP 429)' } }, 'a', 'b']);
    expect(result.calls).toEqual([1, 2]);
    expect(result.failure).toBeUndefined();
    expect(budget.remaining).toBe(4);
  });

  it('waits full-jitter backoff when the server gave no retry-after', async () => {
    const result = await run([{ fail: http(529) }, { fail: reset() }, { items: ['ok'] }], { random: () => 0.5 });
    expect(result.items).toEqual([
      { notice: { attempt: 2, delayMs: 5, reason: 'OVERLOADED (HTTP 529)' } },
      { notice: { attempt: 3, delayMs: 10, reason: 'CONNECTION_FAILED' } },
      'ok',
    ]);
  });

  it('retries when only non-content items were yielded before the failure', async () => {
    const result = await run([{ items: ['ping'], fail: reset() }, { items: ['text'] }], { isContent: (item) => item !== 'ping' });
    expect(result.calls).toEqual([1, 2]);
    expect(result.failure).toBeUndefined();
  });

  it('never replays after content: a retryable failure becomes STREAM_BROKEN, thrown at once', async () => {
    const result = await run([{ items: ['partial'], fail: http(529) }, { items: ['again'] }]);
    expect(result.calls).toEqual([1]);
    expect(result.items).toEqual(['partial']);
    expect(result.failure).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'STREAM_BROKEN', retryable: 'after_remediation', http_status: 529, trace: { attempts: 1 } });
    expect(result.failure?.remediation).toMatch(/kept in the log/);
    expect(result.failure?.remediation).toMatch(/nothing was replayed/);
  });

  it('maps a connection error after content to STREAM_BROKEN', async () => {
    const result = await run([{ items: ['partial'], fail: reset() }]);
    expect(result.failure).toMatchObject({ code: 'STREAM_BROKEN', plugin: 'anthropic', operation: 'model.stream', trace: { attempts: 1 } });
  });

  it('keeps a non-retryable envelope after content as it is', async () => {
    const malformed = (() => {
      try {
        parseEventJson({ event: 'message_delta', data: '{', lastEventId: '' }, { provider: 'anthropic', operation: 'model.stream' });
      } catch (error) {
        return error;
      }
    })();
    const result = await run([{ items: ['partial'], fail: malformed }]);
    expect(result.failure).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'SSE_EVENT_MALFORMED', trace: { attempts: 1 } });
  });

  it('does not retry a non-retryable failure before content', async () => {
    const result = await run([{ fail: http(401) }, { items: ['x'] }]);
    expect(result.calls).toEqual([1]);
    expect(result.failure).toMatchObject({ category: 'AUTH_FAILED', trace: { attempts: 1 } });
  });

  it('stops after maxAttempts with the last envelope and trace.attempts', async () => {
    const budget = retryBudget(10);
    const result = await run([{ fail: http(500) }, { fail: http(500) }, { fail: http(502) }, { items: ['never'] }], { policy: { maxAttempts: 3, baseMs: 1, maxMs: 100 }, budget });
    expect(result.calls).toEqual([1, 2, 3]);
    expect(result.failure).toMatchObject({ category: 'UPSTREAM_UNAVAILABLE', http_status: 502, trace: { attempts: 3 } });
    expect(budget.remaining).toBe(8);
  });

  it('does not retry with the turn budget spent and says so', async () => {
    const result = await run([{ fail: http(429, { 'retry-after': '1' }) }, { items: ['x'] }], { budget: retryBudget(0) });
    expect(result.calls).toEqual([1]);
    expect(result.failure).toMatchObject({ category: 'RATE_LIMITED', retry_after_ms: 1000, trace: { attempts: 1 } });
    expect(result.failure?.remediation).toMatch(/retry budget/);
  });

  it('stops when the budget runs out midway', async () => {
    const result = await run([{ fail: reset() }, { fail: reset() }, { fail: reset() }], { budget: retryBudget(1) });
    expect(result.calls).toEqual([1, 2]);
    expect(result.failure).toMatchObject({ code: 'CONNECTION_FAILED', trace: { attempts: 2 } });
  });

  it('does not retry when the server asks to wait longer than policy.maxMs, and keeps retry_after_ms', async () => {
    const budget = retryBudget(3);
    const result = await run([{ fail: http(429, { 'retry-after': '120' }) }, { items: ['x'] }], { budget });
    expect(result.calls).toEqual([1]);
    expect(result.items).toEqual([]);
    expect(result.failure).toMatchObject({ category: 'RATE_LIMITED', retry_after_ms: 120_000, trace: { attempts: 1 } });
    expect(budget.remaining).toBe(3);
  });

  it('ends a wait at once with CANCELLED when the signal aborts during it', async () => {
    const controller = new AbortController();
    const { attempt, calls } = scripted([{ fail: reset() }, { items: ['x'] }]);
    const stream = retryingStream<Item>(attempt, options({ signal: controller.signal, random: () => 1, policy: { maxAttempts: 4, baseMs: 600_000, maxMs: 600_000 } }));
    const error = await (async () => {
      for await (const item of stream) if (typeof item !== 'string') setTimeout(() => controller.abort(), 1);
    })().catch((caught: unknown) => caught);
    expect(calls).toEqual([1]);
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({ category: 'CANCELLED', code: 'CANCELLED', trace: { attempts: 1 } });
  });

  it('reports an abort during an attempt as CANCELLED, even after content', async () => {
    const controller = new AbortController();
    async function* attempt(): AsyncIterable<string> {
      yield 'partial';
      controller.abort();
      throw new DOMException('This operation was aborted', 'AbortError');
    }
    const error = await (async () => {
      for await (const item of retryingStream<Item>(attempt, options({ signal: controller.signal }))) void item;
    })().catch((caught: unknown) => caught);
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({ category: 'CANCELLED', trace: { attempts: 1 } });
  });

  it('does not start when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run([{ items: ['x'] }], { signal: controller.signal });
    expect(result.calls).toEqual([]);
    expect(result.failure).toMatchObject({ category: 'CANCELLED', trace: { attempts: 0 } });
  });

  it('yields no notice when none is asked for', async () => {
    const result = await run([{ fail: reset() }, { items: ['x'] }], { notice: undefined });
    expect(result.items).toEqual(['x']);
  });
});
