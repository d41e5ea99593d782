import { describe, expect, it } from 'vitest';
import { restartDelay } from './restart-delay.js';

describe('restartDelay', () => {
  it('doubles from half a second and stops at 30 seconds', () => {
    expect([1, 2, 3, 4].map((n) => restartDelay(n, () => 1))).toEqual([500, 1000, 2000, 4000]);
    expect(restartDelay(7, () => 1)).toBe(30_000);
    expect(restartDelay(40, () => 1)).toBe(30_000);
  });

  it('keeps at least half the ceiling whatever the jitter', () => {
    expect([1, 2, 7].map((n) => restartDelay(n, () => 0))).toEqual([250, 500, 15_000]);
  });
});
