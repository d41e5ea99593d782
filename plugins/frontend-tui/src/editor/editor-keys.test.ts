import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { editorKey, type EditorResult } from './editor-keys.js';
import { EMPTY_EDITOR, expanded, type EditorState } from './editor-state.js';

const NO_KEY: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
  return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false,
  super: false, hyper: false, capsLock: false, numLock: false,
};
const key = (k: Partial<Key> = {}): Key => ({ ...NO_KEY, ...k });

/** Applies keys in order; a string types it, an object presses a key. */
function press(state: EditorState, ...keys: (string | [string, Partial<Key>])[]): EditorResult & { effects: EditorResult['effect'][] } {
  let result: EditorResult = { state };
  const effects: EditorResult['effect'][] = [];
  for (const k of keys) {
    result = typeof k === 'string' ? editorKey(result.state, k, key(), []) : editorKey(result.state, k[0], key(k[1]), []);
    if (result.effect) effects.push(result.effect);
  }
  return { ...result, effects };
}

const ENTER: [string, Partial<Key>] = ['\r', { return: true }];

describe('editorKey', () => {
  it('types, moves and deletes; Enter sends the text', () => {
    const r = press(EMPTY_EDITOR, 'h', 'e', 'y', ['', { leftArrow: true }], ['', { backspace: true }], 'Y', ENTER);
    expect(r.state.text).toBe('hYy');
    expect(r.effect).toEqual({ type: 'submit', text: 'hYy' });
  });

  it('breaks the line on a trailing backslash then Enter, Alt+Enter, Shift+Enter and Ctrl+J', () => {
    expect(press(EMPTY_EDITOR, 'a', '\\', ENTER).state.text).toBe('a\n');
    expect(press(EMPTY_EDITOR, 'a', ['\r', { return: true, meta: true }]).state.text).toBe('a\n');
    expect(press(EMPTY_EDITOR, 'a', ['\r', { return: true, shift: true }]).state.text).toBe('a\n');
    const r = press(EMPTY_EDITOR, 'a', '\n', 'b', ENTER);
    expect(r.state.text).toBe('a\nb');
    expect(r.effect).toEqual({ type: 'submit', text: 'a\nb' });
  });

  it('sends typing that arrives in one chunk with its Enter, but never a multi-line chunk', () => {
    expect(press(EMPTY_EDITOR, 'Tidy the build folder\r').effect).toEqual({ type: 'submit', text: 'Tidy the build folder' });
    expect(press(EMPTY_EDITOR, 'typed before raw mode\n').effect).toEqual({ type: 'submit', text: 'typed before raw mode' });
    const r = press(EMPTY_EDITOR, 'one\rtwo\r');
    expect(r.effect).toBeUndefined();
    expect(r.state.text).toBe('[pasted 2 lines]');
  });

  it('sends nothing for an empty or blank input', () => {
    expect(press(EMPTY_EDITOR, ENTER).effect).toBeUndefined();
    expect(press(EMPTY_EDITOR, ' ', ENTER).effect).toBeUndefined();
  });

  it('walks the history with Up on the first line and Down on the last, and gives the draft back', () => {
    const history = ['newest', 'older\nprompt'];
    let state = press(EMPTY_EDITOR, 'dr', 'aft').state;
    state = editorKey(state, '', key({ upArrow: true }), history).state;
    expect(state.text).toBe('newest');
    state = editorKey(state, '', key({ upArrow: true }), history).state;
    expect(state.text).toBe('older\nprompt');
    // The cursor is on the last line of a two-line entry: Up moves within it first.
    state = editorKey(state, '', key({ upArrow: true }), history).state;
    expect(state.text).toBe('older\nprompt');
    expect(state.cursor).toBeLessThan(6);
    state = editorKey(state, '', key({ upArrow: true }), history).state;
    expect(state.text).toBe('older\nprompt');
    state = editorKey(state, '', key({ downArrow: true }), history).state;
    state = editorKey(state, '', key({ downArrow: true }), history).state;
    expect(state.text).toBe('newest');
    state = editorKey(state, '', key({ downArrow: true }), history).state;
    expect(state.text).toBe('draft');
  });

  it('collapses a large paste to a placeholder, sends it whole, and deletes it as one piece', () => {
    const pasted = Array.from({ length: 240 }, (_, i) => `line ${i}`).join('\r');
    let r = press(EMPTY_EDITOR, 'see ', pasted);
    expect(r.state.text).toBe('see [pasted 240 lines]');
    r = press(r.state, ENTER);
    expect(r.effect).toEqual({ type: 'submit', text: `see ${pasted.replace(/\r/g, '\n')}` });
    expect(press(r.state, ['', { backspace: true }]).state.text).toBe('see ');
    const long = 'x'.repeat(300);
    expect(press(EMPTY_EDITOR, long).state.text).toBe('[pasted 300 chars]');
    expect(press(EMPTY_EDITOR, 'a\nb').state.text).toBe('a\nb');
  });

  it('takes a bracketed paste as one paste, even when it arrives in pieces', () => {
    const r = press(EMPTY_EDITOR, '[200~one\rtwo', '\rthree\r[201~');
    expect(r.state.text).toBe('[pasted 3 lines]');
    expect(expanded(r.state)).toBe('one\ntwo\nthree\n');
    expect(press(EMPTY_EDITOR, '[200~short[201~').state.text).toBe('short');
  });

  it('numbers a second paste of the same size so both are sent', () => {
    const paste = 'a\nb\nc';
    const r = press(EMPTY_EDITOR, paste, ' ', paste, ENTER);
    expect(r.state.text).toBe('[pasted 3 lines] [pasted 3 lines #2]');
    expect(r.effect).toEqual({ type: 'submit', text: 'a\nb\nc a\nb\nc' });
  });

  it('clears with Ctrl+C, quits on a second Ctrl+C on the empty input, and any other key disarms it', () => {
    const ctrlC: [string, Partial<Key>] = ['c', { ctrl: true }];
    let r = press(EMPTY_EDITOR, 'text', ctrlC);
    expect(r.state.text).toBe('');
    expect(r.effect?.type).toBe('hint');
    expect(press(r.state, ctrlC).effect).toEqual({ type: 'quit' });
    r = press(EMPTY_EDITOR, ctrlC, 'x', ['', { backspace: true }], ctrlC);
    expect(r.effect?.type).toBe('hint');
    expect(press(r.state, ctrlC).effect).toEqual({ type: 'quit' });
  });

  it('asks to cancel the turn on Esc and to toggle thinking on Ctrl+T', () => {
    expect(press(EMPTY_EDITOR, ['', { escape: true, meta: true }]).effect).toEqual({ type: 'cancelTurn' });
    expect(press(EMPTY_EDITOR, ['t', { ctrl: true }]).effect).toEqual({ type: 'toggleThinking' });
  });

  it('edits with Ctrl+A, Ctrl+E, Ctrl+U, Ctrl+K and Ctrl+W', () => {
    const typed = press(EMPTY_EDITOR, 'one two three').state;
    expect(press(typed, ['w', { ctrl: true }]).state.text).toBe('one two ');
    expect(press(typed, ['a', { ctrl: true }], ['k', { ctrl: true }]).state.text).toBe('');
    expect(press(typed, ['a', { ctrl: true }], 'X', ['e', { ctrl: true }], 'Y').state.text).toBe('Xone two threeY');
    expect(press(typed, ['u', { ctrl: true }]).state.text).toBe('');
  });
});
