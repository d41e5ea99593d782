import { insert, type EditorState } from './editor-state.js';

/** A paste longer than this (or with two newlines or more) is shown collapsed. */
export const PASTE_COLLAPSE_CHARS = 200;

/** Pasted text with the terminal's line endings made newlines. */
export function normalizePaste(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Whether a chunk of input is a paste to collapse: several lines, or long. */
export function collapses(text: string): boolean {
  return text.length > PASTE_COLLAPSE_CHARS || (text.match(/\n/g)?.length ?? 0) >= 2;
}

/**
 * Inserts a paste: a large one as a placeholder (`[pasted 240 lines]`) that stands for the whole text,
 * sent as it was pasted; a small one as it is.
 */
export function insertPaste(state: EditorState, raw: string): EditorState {
  const text = normalizePaste(raw);
  if (!collapses(text)) return insert(state, text);
  const lines = text.replace(/\n$/, '').split('\n').length;
  const base = lines === 1 ? `[pasted ${text.length} chars]` : `[pasted ${lines} lines]`;
  let placeholder = base;
  for (let n = 2; placeholder in state.pastes || state.text.includes(placeholder); n++) placeholder = `${base.slice(0, -1)} #${n}]`;
  return { ...insert(state, placeholder), pastes: { ...state.pastes, [placeholder]: text } };
}
