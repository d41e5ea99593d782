/** The named colours the TUI uses: the terminal's own palette, so light and dark themes both read well. */
export type ColorName = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray';

/** How a stretch of text looks. Colours are dropped under `NO_COLOR`; the attributes stay. */
export interface Style {
  readonly fg?: ColorName;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly strike?: boolean;
  readonly inverse?: boolean;
}

/** A stretch of text in one style. */
export interface Span {
  readonly text: string;
  readonly style?: Style;
}

/** One screen line: spans that together fit the width they were laid out for. */
export type Line = readonly Span[];

const FG: Readonly<Record<ColorName, number>> = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90 };

/**
 * Turns styled spans into terminal text. Every span is closed with a full reset, so styles never leak
 * into the next span, the next line or ink's own output. With `color` false no colour code is written
 * (NO_COLOR, a terminal without colours); bold, dim, italic, underline and inverse still are.
 */
export class Paint {
  constructor(readonly color: boolean) {}

  span(span: Span): string {
    const codes = this.#codes(span.style);
    return codes.length === 0 || span.text.length === 0 ? span.text : `\u001B[${codes.join(';')}m${span.text}\u001B[0m`;
  }

  line(line: Line): string {
    return line.map((s) => this.span(s)).join('');
  }

  lines(lines: readonly Line[]): string {
    return lines.map((l) => this.line(l)).join('\n');
  }

  #codes(style: Style | undefined): number[] {
    if (!style) return [];
    const codes: number[] = [];
    if (style.bold) codes.push(1);
    if (style.dim) codes.push(2);
    if (style.italic) codes.push(3);
    if (style.underline) codes.push(4);
    if (style.inverse) codes.push(7);
    if (style.strike) codes.push(9);
    if (style.fg && this.color) codes.push(FG[style.fg]);
    return codes;
  }
}

/** The environment variables and stream that decide whether the TUI may colour its output. */
export interface ColorProbe {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stream?: { readonly isTTY?: boolean; hasColors?: () => boolean };
}

/**
 * Whether to write colours: never when `NO_COLOR` is set to anything non-empty (no-color.org), when
 * `FORCE_COLOR` is `0`, or when the terminal says it has none (`TERM=dumb`, a stream that is not a TTY).
 */
export function colorEnabled({ env, stream }: ColorProbe): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR === '0') return false;
  if (env.TERM === 'dumb') return false;
  if (!stream?.isTTY) return false;
  return stream.hasColors ? stream.hasColors() : true;
}
