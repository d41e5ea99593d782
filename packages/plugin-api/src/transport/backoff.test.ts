import { describe, expect, it } from 'vitest';
import { backoffDelay, retryAfterMs } from './backoff.js';

const policy = { maxAttempts: 6, baseMs: 100, maxMs: 1_000 };

describe('backoffDelay', () => {
  it('doubles the ceiling per retry and caps it at maxMs', () => {
    const top = () => 0.999_999_9;
    expect([1, 2, 3, 4, 5, 9].map((retry) => backoffDelay(retry, policy, top))).toEqual([99, 199, 399, 799, 999, 999]);
  });

  it('is full jitter: the random factor scales the whole ceiling, down to zero', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
    expect(backoffDelay(3, policy, () => 0.25)).toBe(100);
  });

  it('stays within [0, ceiling] whatever the random source returns', () => {
    expect(backoffDelay(2, policy, () => 7)).toBe(200);
    expect(backoffDelay(2, policy, () => -3)).toBe(0);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelay(4, policy);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(800);
    }
  });

  it('treats a retry below 1 as the first retry', () => {
    expect(backoffDelay(0, policy, () => 0.5)).toBe(50);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  const headers = (init: Record<string, string>) => new Headers(init);

  it('is undefined without headers or without either header', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'content-type': 'application/json' }), now)).toBeUndefined();
  });

  it('reads retry-after-ms, fractional too, rounded up, and prefers it over Retry-After', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '1500' }), now)).toBe(1500);
    expect(retryAfterMs(headers({ 'retry-after-ms': '12.2' }), now)).toBe(13);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
  });

  it('reads Retry-After as delta-seconds', () => {
    expect(retryAfterMs(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': '0' }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after': ' 2 ' }), now)).toBe(2000);
  });

  it('reads Retry-After as an HTTP-date, and a past date as 0', () => {
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
    expect(retryAfterMs(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), now)).toBe(0);
  });

  it('ignores garbage and negative values, falling back from an invalid retry-after-ms to Retry-After', () => {
    for (const value of ['soon', '-5', '1e3', '', 'NaN', '9'.repeat(400)]) {
      expect(retryAfterMs(headers({ 'retry-after': value }), now)).toBeUndefined();
    }
    expect(retryAfterMs(headers({ 'retry-after-ms': '-100' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after-ms': 'abc', 'retry-after': '1' }), now)).toBe(1000);
  });
});
