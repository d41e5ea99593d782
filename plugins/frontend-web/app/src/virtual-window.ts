/** Which rows a virtualised list puts in the DOM, and the space the others take above and below them. */
export interface VisibleWindow {
  readonly start: number;
  /** One past the last row shown. */
  readonly end: number;
  readonly padTop: number;
  readonly padBottom: number;
  readonly total: number;
}

/**
 * Row offsets from row heights (measured ones, else an estimate): `offsets[i]` is where row `i` starts,
 * `offsets[count]` the list's full height.
 */
export function rowOffsets(count: number, heightOf: (index: number) => number): Float64Array {
  const offsets = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + heightOf(i);
  return offsets;
}

/** The first row whose bottom is below `y` (binary search over the offsets). */
export function rowAt(offsets: Float64Array, y: number): number {
  const count = offsets.length - 1;
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (offsets[mid + 1]! <= y) low = mid + 1;
    else high = mid;
  }
  return Math.min(low, Math.max(0, count - 1));
}

/** The rows that meet the viewport `[scrollTop, scrollTop + height)`, with `overscan` more on each side. */
export function visibleWindow(offsets: Float64Array, scrollTop: number, height: number, overscan = 4): VisibleWindow {
  const count = offsets.length - 1;
  const total = offsets[count]!;
  if (count === 0) return { start: 0, end: 0, padTop: 0, padBottom: 0, total };
  const first = rowAt(offsets, Math.max(0, scrollTop));
  const last = rowAt(offsets, Math.max(0, scrollTop + height - 1));
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, last + 1 + overscan);
  return { start, end, padTop: offsets[start]!, padBottom: total - offsets[end]!, total };
}
