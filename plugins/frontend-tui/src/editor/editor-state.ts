/** The input editor's content: text (with paste placeholders), the cursor, and the history walk. */
export interface EditorState {
  readonly text: string;
  /** Offset of the cursor in `text` (UTF-16 units, always on a character boundary). */
  readonly cursor: number;
  /** Collapsed pastes: the placeholder shown (`[pasted 240 lines]`) → what was pasted. */
  readonly pastes: Readonly<Record<string, string>>;
  /** Which history entry is shown: -1 for the person's own draft. */
  readonly historyIndex: number;
  /** The draft kept while the person walks the history. */
  readonly draft: string;
  /** True after a Ctrl-C left the input empty: the next one quits. */
  readonly armedQuit: boolean;
  /** A bracketed paste in progress: what arrived so far. */
  readonly pasting?: string;
}

export const EMPTY_EDITOR: EditorState = { text: '', cursor: 0, pastes: {}, historyIndex: -1, draft: '', armedQuit: false };

/** The start offset of the line the cursor is on, and its end. */
export function lineBounds(text: string, at: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const next = text.indexOf('\n', at);
  return { start, end: next === -1 ? text.length : next };
}

/** The offset one character before or after `at`, never inside a surrogate pair. */
export function step(text: string, at: number, direction: -1 | 1): number {
  if (direction < 0) {
    if (at <= 0) return 0;
    const low = text.charCodeAt(at - 1);
    return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? at - 2 : at - 1;
  }
  if (at >= text.length) return text.length;
  const high = text.charCodeAt(at);
  return high >= 0xd800 && high <= 0xdbff && at + 2 <= text.length ? at + 2 : at + 1;
}

export function insert(state: EditorState, text: string): EditorState {
  return { ...state, text: state.text.slice(0, state.cursor) + text + state.text.slice(state.cursor), cursor: state.cursor + text.length };
}

/** Deletes from `from` to `to` (in either order) and puts the cursor there. */
export function remove(state: EditorState, from: number, to: number): EditorState {
  const [a, b] = from <= to ? [from, to] : [to, from];
  return { ...state, text: state.text.slice(0, a) + state.text.slice(b), cursor: a };
}

/** Backspace: a whole placeholder when the cursor ends one, else one character. */
export function backspace(state: EditorState): EditorState {
  const before = state.text.slice(0, state.cursor);
  const placeholder = Object.keys(state.pastes).find((p) => before.endsWith(p));
  if (placeholder) return remove(state, state.cursor - placeholder.length, state.cursor);
  return remove(state, step(state.text, state.cursor, -1), state.cursor);
}

/** Moves the cursor one line up or down, keeping its column where the line allows; undefined at the edge. */
export function moveLine(state: EditorState, direction: -1 | 1): EditorState | undefined {
  const { start, end } = lineBounds(state.text, state.cursor);
  const column = state.cursor - start;
  if (direction < 0) {
    if (start === 0) return undefined;
    const above = lineBounds(state.text, start - 1);
    return { ...state, cursor: Math.min(above.start + column, above.end) };
  }
  if (end === state.text.length) return undefined;
  const below = lineBounds(state.text, end + 1);
  return { ...state, cursor: Math.min(below.start + column, below.end) };
}

/** The text to send: every placeholder replaced by what was pasted. */
export function expanded(state: EditorState): string {
  let text = state.text;
  for (const [placeholder, content] of Object.entries(state.pastes)) text = text.split(placeholder).join(content);
  return text;
}
