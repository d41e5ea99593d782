/** Code points that take no column: combining marks, zero-width joiners and spaces, variation selectors. */
function zeroWidth(cp: number): boolean {
  return (
    (cp >= 0x0300 && cp <= 0x036f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xe0100 && cp <= 0xe01ef)
  );
}

/** Code points terminals draw two columns wide: East Asian wide and fullwidth forms, and emoji. */
function wide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x1fa70 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Columns one code point takes. */
export function charWidth(cp: number): number {
  if (zeroWidth(cp)) return 0;
  return wide(cp) ? 2 : 1;
}

/** Columns `text` takes on a terminal (plain text, no escape sequences: see `sanitize`). */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += charWidth(ch.codePointAt(0)!);
  return width;
}

/** The longest start of `text` that fits `columns`, cut on a character boundary. */
export function fitWidth(text: string, columns: number): string {
  let width = 0;
  let end = 0;
  for (const ch of text) {
    const w = charWidth(ch.codePointAt(0)!);
    if (width + w > columns) break;
    width += w;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** `text` cut to `columns` with an ellipsis when it did not fit. */
export function truncate(text: string, columns: number): string {
  if (columns <= 0) return '';
  if (textWidth(text) <= columns) return text;
  return `${fitWidth(text, columns - 1)}…`;
}
