import { describe, expect, it } from 'vitest';
import { backoffDelay, reconnectPolicy, sleep } from './backoff.js';

describe('backoffDelay', () => {
  const policy = reconnectPolicy();

  it('defaults to 10 attempts, 100 ms doubling, a 5 s cap', () => {
    expect(policy).toEqual({ maxAttempts: 10, baseMs: 100, capMs: 5_000 });
  });

  it('doubles the ceiling per attempt up to the cap, with full jitter below it', () => {
    expect([1, 2, 3, 6, 7, 10].map((attempt) => backoffDelay(attempt, policy, () => 0.999999))).toEqual([99, 199, 399, 3199, 4999, 4999]);
    expect(backoffDelay(5, policy, () => 0)).toBe(0);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(100);
  });
});

describe('sleep', () => {
  it('ends early when its signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const slept = sleep(10_000, controller.signal);
    controller.abort();
    await slept;
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
