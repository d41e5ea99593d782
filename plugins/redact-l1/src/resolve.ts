import type { Candidate } from './candidate.js';

/** A secret to redact: its span in the original text, its class, and the values it stood for. */
export interface Detection {
  readonly class: string;
  readonly start: number;
  readonly end: number;
  /** Decoded forms of the secret (base64 or escapes undone), for the taint layer to recognise. */
  readonly decoded: readonly string[];
}

interface Cluster {
  class: string;
  start: number;
  end: number;
  priority: number;
  span: number;
  decoded: string[];
}

/**
 * Merges overlapping candidates into one span each (the union, so no part of either is left
 * readable) with the class of the surest candidate, the longest among equals. Sorted by start.
 */
export function resolveOverlaps(candidates: readonly Candidate[]): Detection[] {
  const sorted = [...candidates].sort((a, b) => a.start - b.start || b.end - a.end);
  const clusters: Cluster[] = [];
  for (const c of sorted) {
    const last = clusters.at(-1);
    if (last && c.start < last.end) {
      last.end = Math.max(last.end, c.end);
      const span = c.end - c.start;
      if (c.priority > last.priority || (c.priority === last.priority && span > last.span)) {
        Object.assign(last, { class: c.class, priority: c.priority, span });
      }
      if (c.decoded !== undefined) last.decoded.push(c.decoded);
    } else {
      clusters.push({ class: c.class, start: c.start, end: c.end, priority: c.priority, span: c.end - c.start, decoded: c.decoded === undefined ? [] : [c.decoded] });
    }
  }
  return clusters.map(({ class: cls, start, end, decoded }) => ({ class: cls, start, end, decoded }));
}
