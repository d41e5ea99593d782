import { placeholderOf } from './placeholder.js';
import type { Detection } from './resolve.js';

/** A placeholder in a window of redacted text and the original span it replaced. */
interface Replaced {
  readonly from: number;
  readonly to: number;
  readonly originalFrom: number;
  readonly originalTo: number;
}

/** A piece of the text as it will read once redacted, with its placeholders. */
interface Window {
  readonly text: string;
  /** Original offset of the window's first character. */
  readonly origin: number;
  readonly replaced: readonly Replaced[];
}

/** Most rounds of re-scanning; each round only grows the redacted spans, so it settles fast. */
const MAX_ROUNDS = 3;
/** How much of a long line on either side of a placeholder is re-scanned. */
const REACH = 1024;

/** The original spans to re-scan: the line around each detection (at most `REACH` either side), merged. */
function spans(text: string, detections: readonly Detection[]): [number, number][] {
  const out: [number, number][] = [];
  for (const d of detections) {
    const from = Math.max(text.lastIndexOf('\n', d.start - 1) + 1, d.start - REACH);
    const newline = text.indexOf('\n', d.end);
    const to = Math.max(d.end, Math.min(newline < 0 ? text.length : newline, d.end + REACH));
    const last = out.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([Math.min(from, d.start), to]);
  }
  return out;
}

/** The redacted form of `text[from, to)`; detections there lie wholly inside it (see `spans`). */
function windowOf(text: string, detections: readonly Detection[], from: number, to: number): Window {
  let local = '';
  let at = from;
  const replaced: Replaced[] = [];
  for (const d of detections) {
    if (d.end <= from || d.start >= to) continue;
    local += text.slice(at, d.start);
    const marker = placeholderOf(d.class);
    replaced.push({ from: local.length, to: local.length + marker.length, originalFrom: d.start, originalTo: d.end });
    local += marker;
    at = d.end;
  }
  return { text: local + text.slice(at, to), origin: from, replaced };
}

/** The original offset of window offset `at`; inside a placeholder, its original start (or end). */
function toOriginal(window: Window, at: number, end: boolean): number {
  let shift = window.origin;
  for (const r of window.replaced) {
    if (end ? at <= r.from : at < r.from) break;
    if (end ? at <= r.to : at < r.to) return end ? r.originalTo : r.originalFrom;
    shift = r.originalTo - r.to;
  }
  return at + shift;
}

/** Unions `extra` into `detections`; where they overlap, the earlier detection keeps its class. */
function merge(detections: readonly Detection[], extra: readonly Detection[]): Detection[] {
  const sorted = [...detections, ...extra].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Detection[] = [];
  for (const d of sorted) {
    const last = out.at(-1);
    if (last && d.start < last.end) out[out.length - 1] = { ...last, end: Math.max(last.end, d.end), decoded: [...last.decoded, ...d.decoded] };
    else out.push(d);
  }
  return out;
}

/**
 * Makes redaction idempotent. A placeholder gives its neighbours a new boundary (`…_ID=AKIA…` becomes
 * `…_ID=[REDACTED aws-access-key]`), which can complete a match that was not there before. The line
 * around each placeholder is scanned again, as it will read once redacted, until nothing new appears;
 * what appears is mapped back to the original text. Costs nothing when nothing was found.
 */
export function closeDetections(text: string, first: readonly Detection[], find: (text: string) => readonly Detection[]): readonly Detection[] {
  let detections = first;
  for (let round = 0; round < MAX_ROUNDS && detections.length > 0; round++) {
    const extra: Detection[] = [];
    for (const [from, to] of spans(text, detections)) {
      const window = windowOf(text, detections, from, to);
      for (const d of find(window.text)) {
        const start = toOriginal(window, d.start, false);
        const end = toOriginal(window, d.end, true);
        if (!detections.some((known) => known.start <= start && known.end >= end)) extra.push({ ...d, start, end });
      }
    }
    if (extra.length === 0) return detections;
    detections = merge(detections, extra);
  }
  return detections;
}
