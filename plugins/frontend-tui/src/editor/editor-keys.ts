import type { Key } from 'ink';
import { backspace, EMPTY_EDITOR, expanded, insert, lineBounds, moveLine, remove, step, type EditorState } from './editor-state.js';
import { insertPaste, normalizePaste } from './paste.js';

/** What a key asks of the TUI beyond the editor itself. */
export type EditorEffect =
  | { readonly type: 'submit'; readonly text: string }
  | { readonly type: 'quit' }
  | { readonly type: 'cancelTurn' }
  | { readonly type: 'toggleThinking' }
  | { readonly type: 'hint'; readonly text: string };

/** The editor after a key, and what it asks for. */
export interface EditorResult {
  readonly state: EditorState;
  readonly effect?: EditorEffect;
}

const PASTE_START = '[200~';
const PASTE_END = '[201~';

/** Shows history entry `index` (-1: the draft). */
function showHistory(state: EditorState, history: readonly string[], index: number): EditorState {
  const draft = state.historyIndex === -1 ? state.text : state.draft;
  const text = index === -1 ? draft : history[index]!;
  return { ...state, text, cursor: text.length, historyIndex: index, draft };
}

function vertical(state: EditorState, direction: -1 | 1, history: readonly string[]): EditorState {
  const moved = moveLine(state, direction);
  if (moved) return moved;
  const index = state.historyIndex - direction;
  if (index < -1 || index >= history.length) return state;
  return showHistory(state, history, index);
}

function control(state: EditorState, name: string): EditorResult | undefined {
  const { start, end } = lineBounds(state.text, state.cursor);
  switch (name) {
    case 'c':
      if (state.text.length > 0) return { state: { ...EMPTY_EDITOR, armedQuit: true }, effect: { type: 'hint', text: 'Cleared. Ctrl+C again quits.' } };
      return state.armedQuit ? { state, effect: { type: 'quit' } } : { state: { ...state, armedQuit: true }, effect: { type: 'hint', text: 'Press Ctrl+C again to quit.' } };
    case 'a':
      return { state: { ...state, cursor: start } };
    case 'e':
      return { state: { ...state, cursor: end } };
    case 'u':
      return { state: remove(state, start, state.cursor) };
    case 'k':
      return { state: remove(state, state.cursor, end) };
    case 'w': {
      const before = state.text.slice(0, state.cursor);
      const word = /\S*\s*$/.exec(before)?.[0].length ?? 0;
      return { state: remove(state, state.cursor - Math.max(word, 1), state.cursor) };
    }
    case 'd':
      return { state: remove(state, state.cursor, step(state.text, state.cursor, 1)) };
    case 't':
      return { state, effect: { type: 'toggleThinking' } };
    default:
      return undefined;
  }
}

function enter(state: EditorState, key: Key): EditorResult {
  if (key.meta || key.shift) return { state: insert(state, '\n') };
  if (state.text[state.cursor - 1] === '\\') return { state: insert(remove(state, state.cursor - 1, state.cursor), '\n') };
  const text = expanded(state);
  if (text.trim().length === 0) return { state };
  return { state, effect: { type: 'submit', text } };
}

/**
 * One key (or one chunk of pasted input) applied to the editor. Enter sends; a trailing `\` then Enter,
 * Alt+Enter, Shift+Enter and Ctrl+J break the line; Up and Down walk the history from the first and
 * last lines; a large paste is collapsed; Ctrl+C clears, and a second one on an empty input quits.
 */
export function editorKey(state: EditorState, input: string, key: Key, history: readonly string[]): EditorResult {
  if (state.pasting !== undefined) {
    const end = input.indexOf(PASTE_END);
    if (end === -1) return { state: { ...state, pasting: state.pasting + input } };
    const { pasting, ...rest } = state;
    return { state: insertPaste(rest, pasting + input.slice(0, end)) };
  }
  if (input.startsWith(PASTE_START)) return editorKey({ ...state, pasting: '' }, input.slice(PASTE_START.length), key, history);
  if (key.ctrl && input.length === 1) {
    const result = control(state, input);
    if (result) return input === 'c' ? result : { ...result, state: { ...result.state, armedQuit: false } };
  }
  // Any other key disarms a pending Ctrl+C.
  const s: EditorState = state.armedQuit ? { ...state, armedQuit: false } : state;
  if (key.return) return enter(s, key);
  if (input === '\n') return { state: insert(s, '\n') };
  if (key.escape) return { state: s, effect: { type: 'cancelTurn' } };
  if (key.backspace || key.delete) return { state: backspace(s) };
  if (key.leftArrow) return { state: { ...s, cursor: step(s.text, s.cursor, -1) } };
  if (key.rightArrow) return { state: { ...s, cursor: step(s.text, s.cursor, 1) } };
  if (key.upArrow) return { state: vertical(s, -1, history) };
  if (key.downArrow) return { state: vertical(s, 1, history) };
  if (key.home) return { state: { ...s, cursor: lineBounds(s.text, s.cursor).start } };
  if (key.end) return { state: { ...s, cursor: lineBounds(s.text, s.cursor).end } };
  if (key.tab || key.ctrl || key.meta || input.length === 0) return { state: s };
  // Typing that arrives in one chunk with its Enter (a fast typist, a terminal multiplexer, keys typed
  // before the terminal was in raw mode) is typing: real pastes come bracketed, and a multi-line chunk
  // is taken as a paste, never sent line by line.
  if (/^[^\r\n]+[\r\n]$/.test(input)) return enter(insert(s, input.slice(0, -1)), key);
  if (input.length > 1) return { state: insertPaste(s, input) };
  return { state: insert(s, normalizePaste(input)) };
}
