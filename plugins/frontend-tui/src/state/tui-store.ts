import type { TuiAction } from './tui-action.js';
import { tuiReducer } from './tui-reducer.js';
import { initialState, type TuiState } from './tui-state.js';

/** The TUI's state outside React: the controller dispatches into it, the view subscribes to it. */
export interface TuiStore {
  getState(): TuiState;
  dispatch(action: TuiAction): void;
  /** Calls `listener` after each change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** A store over `tuiReducer`. */
export function createTuiStore(state: TuiState = initialState()): TuiStore {
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = tuiReducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
