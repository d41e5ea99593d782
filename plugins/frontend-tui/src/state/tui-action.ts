import type { ClientEvent, ProviderChoice, SessionSummary } from '@nodwyn/protocol';
import type { Tone } from './finished-item.js';
import type { Question } from './tui-state.js';

/** Everything that changes the TUI's state: the client's events, and what the person did. */
export type TuiAction =
  /** Client events, in arrival order, taken together (one render for a page of replayed events). */
  | { readonly type: 'events'; readonly events: readonly ClientEvent[]; readonly at: number }
  /** The TUI now shows `sessionId` (`running`: a turn of it runs now). */
  | { readonly type: 'session.opened'; readonly sessionId: string; readonly title?: string; readonly running: boolean }
  /**
   * The events that arrived while the session was attached: its tail, replayed after `fromSeq`, and what
   * happened meanwhile. Drawn at once, as much as `HISTORY_CHARS` allows, with a line saying how many
   * earlier events the log holds.
   */
  | { readonly type: 'history'; readonly events: readonly ClientEvent[]; readonly fromSeq: number; readonly at: number }
  /** The TUI shows no session until the next prompt creates one (`/new`). */
  | { readonly type: 'session.left' }
  /** A prompt went out; `logged` prompts show once the log records them, the others (commands) at once. */
  | { readonly type: 'prompt.sent'; readonly text: string; readonly logged: boolean }
  /** The prompt's request ended (answered, or failed: then a notice follows). */
  | { readonly type: 'prompt.ended' }
  | { readonly type: 'cancel.requested' }
  | { readonly type: 'notice'; readonly text: string; readonly tone: Tone }
  /** This client was asked a question (`session/request_permission`). */
  | { readonly type: 'question.asked'; readonly question: Question }
  | { readonly type: 'question.closed'; readonly callId: string }
  | { readonly type: 'thinking.toggled' }
  | { readonly type: 'picker.opened'; readonly sessions: readonly SessionSummary[] }
  | { readonly type: 'picker.closed' }
  | { readonly type: 'setup.required'; readonly providers: readonly ProviderChoice[] }
  | { readonly type: 'setup.finished' }
  | { readonly type: 'history.loaded'; readonly prompts: readonly string[] };
