import { splitLines } from './output.js';

/** A line of a file that resembles what the model was looking for. */
export interface NearLine {
  /** 1-based line number. */
  readonly line: number;
  /** The line as the file holds it, cut for display. */
  readonly text: string;
  /** True when it equals the sought line once leading and trailing whitespace is ignored. */
  readonly exact: boolean;
}

/** Beyond this the hint is not worth its cost; the model will re-read the file anyway. */
const MAX_SCANNED_LINES = 20_000;
const MIN_SIMILARITY = 0.5;
const MAX_SHOWN_CHARS = 160;
/** Bigrams of a minified line would cost more than the hint is worth; its start is enough to compare. */
const MAX_COMPARED_CHARS = 400;

/**
 * The line of `text` closest to the first non-blank line of `needle`, when one is close enough to help a
 * model see why its edit did not match (usually indentation or a stale copy). Similarity is the Dice
 * coefficient of character bigrams: linear in the line lengths, so the whole scan stays cheap.
 */
export function closestLine(text: string, needle: string): NearLine | undefined {
  const sought = needle.split('\n').map((line) => line.trim()).find((line) => line !== '');
  if (sought === undefined) return undefined;
  const soughtBigrams = bigrams(sought.slice(0, MAX_COMPARED_CHARS));
  let best: { line: number; score: number; text: string } | undefined;
  const lines = splitLines(text).slice(0, MAX_SCANNED_LINES);
  for (const [index, line] of lines.entries()) {
    const trimmed = line.trim();
    if (trimmed === sought) return { line: index + 1, text: shorten(line), exact: true };
    const score = dice(soughtBigrams, bigrams(trimmed.slice(0, MAX_COMPARED_CHARS)));
    if (score >= MIN_SIMILARITY && score > (best?.score ?? 0)) best = { line: index + 1, score, text: line };
  }
  return best && { line: best.line, text: shorten(best.text), exact: false };
}

function shorten(line: string): string {
  return line.length <= MAX_SHOWN_CHARS ? line : `${line.slice(0, MAX_SHOWN_CHARS)}…`;
}

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index < text.length - 1; index++) {
    const pair = text.slice(index, index + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

function dice(a: Map<string, number>, b: Map<string, number>): number {
  let total = 0;
  let shared = 0;
  for (const count of a.values()) total += count;
  for (const [pair, count] of b) {
    total += count;
    shared += Math.min(count, a.get(pair) ?? 0);
  }
  return total === 0 ? 0 : (2 * shared) / total;
}
