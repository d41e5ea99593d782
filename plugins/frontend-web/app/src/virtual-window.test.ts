import { describe, expect, it } from 'vitest';
import { rowAt, rowOffsets, visibleWindow } from './virtual-window.js';

describe('visibleWindow', () => {
  it('puts only the rows meeting the viewport (plus overscan) in the DOM, whatever the list length', () => {
    const offsets = rowOffsets(100_000, () => 20);
    const window = visibleWindow(offsets, 20 * 50_000, 400, 2);
    expect(window.start).toBe(49_998);
    expect(window.end).toBe(50_022);
    expect(window.padTop).toBe(49_998 * 20);
    expect(window.padTop + (window.end - window.start) * 20 + window.padBottom).toBe(window.total);
  });

  it('uses measured heights where it has them', () => {
    const offsets = rowOffsets(4, (i) => [10, 100, 10, 10][i]!);
    expect(rowAt(offsets, 0)).toBe(0);
    expect(rowAt(offsets, 10)).toBe(1);
    expect(rowAt(offsets, 109)).toBe(1);
    expect(rowAt(offsets, 110)).toBe(2);
    expect(rowAt(offsets, 10_000)).toBe(3);
    expect(visibleWindow(offsets, 15, 20, 0)).toMatchObject({ start: 1, end: 2, padTop: 10, padBottom: 20 });
  });

  it('is empty for an empty list', () => {
    expect(visibleWindow(rowOffsets(0, () => 1), 0, 100)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0, total: 0 });
  });
});
