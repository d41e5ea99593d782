import type { Line, Span, Style } from './paint.js';
import { fitWidth, textWidth } from './text-width.js';

/** Prefixes of wrapped lines: `first` on the first line, `rest` on every other (a hanging indent). */
export interface WrapPrefix {
  readonly first?: Line;
  readonly rest?: Line;
}

const lineWidth = (line: Line): number => line.reduce((w, s) => w + textWidth(s.text), 0);

/** Appends `text` in `style` to `line`, merging with the last span when the style is the same. */
function push(line: Span[], text: string, style: Style | undefined): void {
  const last = line.at(-1);
  if (last && last.style === style) line[line.length - 1] = { text: last.text + text, style };
  else line.push(style ? { text, style } : { text });
}

function trimEnd(line: Span[]): void {
  while (line.length > 0) {
    const last = line.at(-1)!;
    const trimmed = last.text.replace(/ +$/, '');
    if (trimmed.length > 0) {
      line[line.length - 1] = { ...last, text: trimmed };
      return;
    }
    line.pop();
  }
}

/**
 * Lays styled text out in lines of at most `width` columns: words wrap at spaces, a word longer than a
 * line is cut, `\n` starts a new line (keeping the indentation that follows it), and the prefixes give
 * lists and quotes their hanging indent.
 */
export function wrapSpans(spans: readonly Span[], width: number, prefix: WrapPrefix = {}): Line[] {
  const first = prefix.first ?? [];
  const rest = prefix.rest ?? first;
  const lines: Line[] = [];
  let line: Span[] = [...first];
  let used = lineWidth(first);
  let content = false;
  // Spaces that start a line of the text itself are indentation, kept; those at a wrap are dropped.
  let textLineStart = true;
  const breakLine = (): void => {
    trimEnd(line);
    lines.push(line);
    line = [...rest];
    used = lineWidth(rest);
    content = false;
  };
  for (const span of spans) {
    for (const token of span.text.match(/\n| +|[^ \n]+/g) ?? []) {
      if (token === '\n') {
        breakLine();
        textLineStart = true;
        continue;
      }
      const w = textWidth(token);
      if (token.startsWith(' ')) {
        if ((content || textLineStart) && used + w <= width) {
          push(line, token, span.style);
          used += w;
        }
        continue;
      }
      textLineStart = false;
      if (used + w > width && content) breakLine();
      let word = token;
      while (textWidth(word) > width - used) {
        const room = Math.max(1, width - used);
        const part = fitWidth(word, room) || [...word][0]!;
        push(line, part, span.style);
        word = word.slice(part.length);
        content = true;
        breakLine();
      }
      if (word.length > 0) {
        push(line, word, span.style);
        used += textWidth(word);
        content = true;
      }
    }
  }
  trimEnd(line);
  lines.push(line);
  return lines;
}

/** Cuts one line of code into lines of at most `width` columns, keeping every character (no word wrap). */
export function wrapHard(spans: readonly Span[], width: number): Line[] {
  const lines: Line[] = [];
  let line: Span[] = [];
  let used = 0;
  for (const span of spans) {
    let text = span.text;
    while (text.length > 0) {
      const part = fitWidth(text, Math.max(1, width - used)) || (used === 0 ? [...text][0]! : '');
      if (part.length === 0) {
        lines.push(line);
        line = [];
        used = 0;
        continue;
      }
      push(line, part, span.style);
      used += textWidth(part);
      text = text.slice(part.length);
      if (text.length > 0) {
        lines.push(line);
        line = [];
        used = 0;
      }
    }
  }
  lines.push(line);
  return lines;
}

/** The plain text of a line. */
export function lineText(line: Line): string {
  return line.map((s) => s.text).join('');
}
