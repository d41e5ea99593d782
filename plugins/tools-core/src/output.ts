/** Bytes kept free below the output cap for the closing note of a cut result. */
export const NOTE_RESERVE = 512;

/** Longest line shown by read_file and grep; a minified bundle should not fill the model's context. */
export const MAX_LINE_CHARS = 2000;

/** UTF-8 size of `text`, the unit of the output cap. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** How many of `lines`, joined by newlines, fit in `capBytes`. */
export function linesWithin(lines: readonly string[], capBytes: number): number {
  let used = 0;
  for (let index = 0; index < lines.length; index++) {
    used += byteLength(lines[index] ?? '') + 1;
    if (used > capBytes) return index;
  }
  return lines.length;
}

/** Cuts one long line, saying how much was left out. */
export function cutLine(text: string, max = MAX_LINE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

/** Splits file text into lines: a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  // Shown without the carriage return of CRLF files; edit_file matches such files either way.
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** `1 file` / `3 files`; pass the plural when adding an s would not make it. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
