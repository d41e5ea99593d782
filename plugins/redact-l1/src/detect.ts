import type { Candidate } from './candidate.js';
import { decodeView, markedLines, type DecodedView } from './decoded-view.js';
import { closeDetections } from './closure.js';
import { resolveOverlaps, type Detection } from './resolve.js';
import { scanText } from './scan-text.js';

/**
 * Finds every secret in `text`. Pass one scans the text as it is; pass two scans decoded copies of the
 * lines that hold escapes, terminal colours or percent-encoding (one with escapes undone, one also
 * percent-decoded), mapping what it finds back to the original offsets; then the text around each find
 * is scanned again as it will read once redacted (see `closeDetections`). Pure and synchronous; throws
 * only on a bug (callers fail closed).
 */
export function detect(text: string): readonly Detection[] {
  return closeDetections(text, detectOnce(text), detectOnce);
}

/** One detection pass, before `closeDetections` looks again around what it found. */
function detectOnce(text: string): Detection[] {
  const found: Candidate[] = [];
  scanText(text, false, found);
  for (const { from, to, percent } of markedLines(text)) {
    const escapes = decodeView(text, from, to, false);
    if (escapes.changed) scanView(escapes, found);
    const all = percent ? decodeView(text, from, to, true) : escapes;
    if (all !== escapes && all.text !== escapes.text) scanView(all, found);
  }
  return resolveOverlaps(found);
}

/** Scans a decoded view and adds what it finds to `found`, in the original text's offsets. */
function scanView(view: DecodedView, found: Candidate[]): void {
  const inView: Candidate[] = [];
  scanText(view.text, false, inView);
  for (const c of inView) {
    found.push({ ...c, start: view.starts[c.start]!, end: view.ends[c.end - 1]!, decoded: c.decoded ?? view.text.slice(c.start, c.end) });
  }
}
