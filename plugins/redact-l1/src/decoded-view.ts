/**
 * A decoded copy of part of a text, and where each of its characters came from. Secrets hide behind
 * JSON escapes (`\u0041`, `\/`), terminal colours (`\x1b[31m`) and percent-encoding (`%2F`); the rules
 * run again on the decoded copy and the offsets map back to the original.
 */
export interface DecodedView {
  readonly text: string;
  /** Original index of the first code unit each decoded character came from. */
  readonly starts: Int32Array;
  /** Original index just past the code units each decoded character came from. */
  readonly ends: Int32Array;
  /** False when decoding changed nothing (no second scan needed). */
  readonly changed: boolean;
}

const ESC = 0x1b;
const BACKSLASH = 92;
/**
 * Lines that hold an escape, a terminal colour or a percent-encoded byte. `%20` alone does not count:
 * it is the most common escape in URLs and log lines, and an encoded space never hides a secret's
 * characters or the structure around one.
 */
const MARKER = /\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\/|033\[|e\[)|\x1b|%(?!20)[0-9A-Fa-f]{2}/g;
const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { '/': 47, '"': 34, "'": 39, '\\': 92, n: 10, r: 13, t: 9, b: 8, f: 12 };
/** The parameters and final byte of a CSI sequence (`[31m`, `[0;1m`, `[2K`). */
const CSI = /\[[0-9;?]*[@-~]/y;
const HEX = /^[0-9a-fA-F]+$/;
const PERCENT = /%(?!20)[0-9A-Fa-f]{2}/;

/** Whole lines that hold a marker; `percent` when one of them is a percent-escape. */
export interface MarkedLines {
  from: number;
  to: number;
  percent: boolean;
}

/** The lines of `text` that hold a marker, adjacent lines merged. */
export function markedLines(text: string): MarkedLines[] {
  const lines: MarkedLines[] = [];
  MARKER.lastIndex = 0;
  for (let m = MARKER.exec(text); m; m = MARKER.exec(text)) {
    const from = text.lastIndexOf('\n', m.index) + 1;
    const newline = text.indexOf('\n', m.index);
    const to = newline < 0 ? text.length : newline;
    const percent = m[0][0] === '%' || PERCENT.test(text.slice(m.index, to));
    const last = lines.at(-1);
    if (last && from <= last.to + 1) Object.assign(last, { to, percent: last.percent || percent });
    else lines.push({ from, to, percent });
    MARKER.lastIndex = to;
  }
  return lines;
}

/** Decodes the escape at `i`: its character code and length, or undefined when it is not one. */
function escapeAt(text: string, i: number, to: number): { code: number; length: number } | undefined {
  const next = text[i + 1];
  if (next === undefined || i + 1 >= to) return undefined;
  if (next === 'u' || next === 'x') {
    const digits = next === 'u' ? 4 : 2;
    const hex = text.slice(i + 2, i + 2 + digits);
    return hex.length === digits && HEX.test(hex) ? { code: parseInt(hex, 16), length: 2 + digits } : undefined;
  }
  if (text.startsWith('033', i + 1)) return { code: ESC, length: 4 };
  if (next === 'e') return { code: ESC, length: 2 };
  const simple = SIMPLE_ESCAPES[next];
  return simple === undefined ? undefined : { code: simple, length: 2 };
}

/** Length of the colour sequence that follows an ESC at `after`, 0 when none does. */
function csiLength(text: string, after: number): number {
  CSI.lastIndex = after;
  return CSI.exec(text)?.[0].length ?? 0;
}

/** The decoded unit at `i`: code and length; `code` is -1 for a terminal sequence that decodes to nothing. */
function unitAt(text: string, i: number, to: number, percent: boolean): { code: number; length: number } {
  const c = text.charCodeAt(i);
  if (c === BACKSLASH) {
    const escape = escapeAt(text, i, to);
    if (escape?.code === ESC) return { code: -1, length: escape.length + csiLength(text, i + escape.length) };
    if (escape) return escape;
  } else if (c === ESC) {
    return { code: -1, length: 1 + csiLength(text, i + 1) };
  } else if (percent && c === 37 && i + 3 <= to && HEX.test(text.slice(i + 1, i + 3))) {
    const code = parseInt(text.slice(i + 1, i + 3), 16);
    // Only ASCII: a multi-byte UTF-8 sequence never spells a secret's characters.
    if (code < 0x80) return { code, length: 3 };
  }
  return { code: c, length: 1 };
}

/**
 * Decodes `text[from, to)`: JSON/JS escapes, ANSI sequences removed, and with `percent` ASCII
 * percent-escapes. Percent-decoding is a separate view because it also decodes what must stay encoded
 * for the text to parse (a `%2F` inside a URL's password would end the password).
 */
export function decodeView(text: string, from: number, to: number, percent: boolean): DecodedView {
  const codes = new Uint16Array(to - from);
  const starts = new Int32Array(to - from);
  const ends = new Int32Array(to - from);
  let n = 0;
  for (let i = from; i < to; ) {
    const c = text.charCodeAt(i);
    // Plain characters (all but `\`, ESC and `%`) copy through without building a unit.
    if (c !== BACKSLASH && c !== ESC && c !== 37) {
      codes[n] = c;
      starts[n] = i;
      ends[n] = i + 1;
      n++;
      i++;
      continue;
    }
    const unit = unitAt(text, i, to, percent);
    if (unit.code >= 0) {
      codes[n] = unit.code;
      starts[n] = i;
      ends[n] = i + unit.length;
      n++;
    }
    i += unit.length;
  }
  let decoded = '';
  for (let k = 0; k < n; k += 8192) decoded += String.fromCharCode(...codes.subarray(k, Math.min(n, k + 8192)));
  return { text: decoded, starts: starts.subarray(0, n), ends: ends.subarray(0, n), changed: n !== to - from };
}
