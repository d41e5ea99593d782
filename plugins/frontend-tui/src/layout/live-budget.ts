import type { TuiState } from '../state/tui-state.js';
import { questionLines } from './question-lines.js';

/** Running tools listed at once. */
export const MAX_TOOLS = 5;

/** How many lines each part of the live region may take in a terminal of `rows`. */
export interface LiveBudget {
  readonly editorLines: number;
  /** Rows of a list (the session picker, the setup's choices). */
  readonly listRows: number;
  /** Lines of the streaming answer shown (its newest). */
  readonly streamLines: number;
}

/** Whether a dialog, the picker or the setup takes the keyboard from the editor. */
export function hasOverlay(state: TuiState): boolean {
  return state.questions.length > 0 || state.picker !== undefined || state.setup !== undefined;
}

/**
 * Shares the terminal's rows out so the live region stays shorter than the terminal: when it does not,
 * ink clears the screen and writes the whole scrollback again, which costs a long session dearly.
 */
export function liveBudget(state: TuiState, rows: number, width: number): LiveBudget {
  const editorLines = Math.min(8, Math.max(1, rows - 12));
  const listRows = Math.max(3, Math.min(8, rows - 10));
  const question = state.questions[0];
  const overlay = question
    ? questionLines(question, Math.max(1, width - 4), state.questions.length - 1).length + 2
    : state.picker
      ? listRows + 3
      : state.setup
        ? listRows + 4
        : editorLines + 7;
  const streaming = state.stream.text.length > 0 || state.stream.thought.length > 0;
  const tools = Math.min(state.tools.length, MAX_TOOLS) + (state.tools.length > MAX_TOOLS ? 1 : 0);
  const busyLine = state.turn !== 'idle' && !streaming && state.tools.length === 0 ? 1 : 0;
  const fixed = 1 + (state.connection.state === 'open' ? 0 : 1) + tools + (state.echo !== undefined ? 1 : 0) + busyLine;
  return { editorLines, listRows, streamLines: Math.max(3, rows - 2 - fixed - overlay) };
}
