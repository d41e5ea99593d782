// What a terminal would act on instead of showing: C0 controls (ESC starts cursor moves, line erases and
// OSC 52 clipboard writes; BEL, backspace and a lone CR overwrite), DEL, C1 controls (0x9b is a one-byte
// CSI), zero-width characters and bidirectional overrides (which reorder text on screen). Tab and newline
// are layout, so they stay.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
// In JSON text, C0 is escaped already; these are the rest a terminal reading the JSON would act on.
const JSON_RAW = /[\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

function visible(c: string): string {
  const code = c.codePointAt(0)!;
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text from files, tools or a model, made safe to print for a person: every control character becomes a
 * visible escape (`\x1b`, `\x9b`, `\u202e`), so what is on screen is what the text says. A CR that ends a
 * line (CRLF) is dropped rather than shown.
 */
export function forTerminal(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROLS, visible);
}

/**
 * `JSON.stringify` whose output has no raw C1 or bidirectional characters either: they are written as
 * `\u009b`-style escapes, which parse back to the same value.
 */
export function jsonText(value: unknown, space?: number): string {
  return JSON.stringify(value, undefined, space).replace(JSON_RAW, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
