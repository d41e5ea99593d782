const BACKSLASH = 92;
/** Letters that follow a backslash in a JSON or shell escape (`\n`, `\t`, …). */
const ESCAPE_LETTERS = new Set(['n', 'r', 't', 'b', 'f', 'v', '0'].map((c) => c.charCodeAt(0)));

/** True for ASCII letters and digits. */
export function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** True for the characters of a config key or identifier: letters, digits, `_`, `-`, `.`. */
export function isKeyChar(code: number): boolean {
  return isAlnum(code) || code === 95 || code === 45 || code === 46;
}

/** True for spaces and tabs (a separator may be padded with them, never with a newline). */
export function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/** True for any whitespace a token cannot contain. */
export function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 11;
}

/** A terminal colour or cursor sequence (`\x1b[1;31m`): its final letter is no part of what follows. */
const TERMINAL_SEQUENCE = /^\x1b\[[0-9;?]*[A-Za-z]$/;

/**
 * True when a token may start at `i`: the character before is not a letter or digit, or it is the
 * letter of an escape such as `\n` (a JSON string `"a\nAKIA…"` holds the token right after it) or the
 * last letter of a terminal colour sequence.
 */
export function startsToken(text: string, i: number): boolean {
  if (i === 0) return true;
  const before = text.charCodeAt(i - 1);
  if (!isAlnum(before)) return true;
  if (i >= 2 && ESCAPE_LETTERS.has(before) && text.charCodeAt(i - 2) === BACKSLASH) return true;
  // Bounded: an unbounded lastIndexOf would walk back through the whole text on every call.
  const window = text.slice(Math.max(0, i - 16), i);
  const esc = window.lastIndexOf('\x1b');
  return esc >= 0 && TERMINAL_SEQUENCE.test(window.slice(esc));
}

/** True when a token may end at `end`: what follows is not a letter or digit. */
export function endsToken(text: string, end: number): boolean {
  return end >= text.length || !isAlnum(text.charCodeAt(end));
}

/** Index of the first character of the run of `accept` characters that ends at `from` (at most `max` back). */
export function scanBack(text: string, from: number, accept: (code: number) => boolean, max: number): number {
  let i = from;
  const limit = Math.max(0, from - max);
  while (i > limit && accept(text.charCodeAt(i - 1))) i--;
  return i;
}

/** Index just past the run of `accept` characters that starts at `from` (at most `max` long). */
export function scanForward(text: string, from: number, accept: (code: number) => boolean, max: number): number {
  let i = from;
  const limit = Math.min(text.length, from + max);
  while (i < limit && accept(text.charCodeAt(i))) i++;
  return i;
}

/** Runs a sticky regex at `at`; the match, or undefined. */
export function stickyAt(pattern: RegExp, text: string, at: number): RegExpExecArray | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text) ?? undefined;
}
