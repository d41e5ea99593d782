import type { ClientEvent, ConfirmationRequested } from '@nodwyn/protocol';
import type { ShownError } from '../shown-error.js';

/** An ACP `session/update` as the client delivers it. */
export type SessionUpdate = Extract<ClientEvent, { type: 'update' }>['update'];
/** One kind of `session/update`. */
export type UpdateOf<K extends SessionUpdate['sessionUpdate']> = Extract<SessionUpdate, { sessionUpdate: K }>;

/** What a tool call produced: its text, the diff of an edit, or its envelope. */
export interface ToolOutcome {
  readonly text?: string;
  readonly diff?: { readonly path: string; readonly oldText?: string; readonly newText: string };
  readonly envelope?: ShownError;
}

/** A tool call's status: ACP's four, plus how a logged call may end. */
export type ToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'denied' | 'interrupted';

/**
 * One finished row of the session view, derived from one log event (`seq`, what "fork here" forks at).
 * Everything finished comes from the log, so a reopened session looks as it did live.
 */
export type Item = { readonly key: string; readonly seq: number } & (
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'assistant'; readonly text: string; readonly thinking: readonly string[]; readonly partial?: boolean }
  | { readonly kind: 'tool'; readonly title: string; readonly status: ToolStatus; readonly outcome: ToolOutcome }
  | { readonly kind: 'plan'; readonly entries: readonly string[]; readonly approved: boolean; readonly feedback?: string }
  | { readonly kind: 'notice'; readonly text: string; readonly tone: 'dim' | 'warn' | 'error' }
  | { readonly kind: 'turn'; readonly reason: string; readonly envelope?: ShownError }
);

/** An item before it is given its key. */
export type NewItem = Item extends infer T ? (T extends Item ? Omit<T, 'key'> : never) : never;

/** A tool call that runs now, shown live until the log records its outcome. */
export interface LiveTool {
  readonly toolCallId: string;
  readonly callId?: string;
  readonly title: string;
  readonly status: 'pending' | 'in_progress' | 'completed' | 'failed';
  readonly outcome?: ToolOutcome;
  /** How far it has got, as the tool last reported (`3/10 compiling`). */
  readonly progress?: string;
}

/** A call the model made that has no logged outcome yet. */
export interface OpenCall {
  readonly name: string;
  readonly args: unknown;
  readonly title: string;
  readonly toolCallId: string;
}

/** Model, tokens, cost and context of the session. */
export interface StatusView {
  readonly provider?: string;
  readonly model?: string;
  /** The last model call's tokens: how full the window is. */
  readonly used?: number;
  /** The window budget, in tokens. */
  readonly size?: number;
  readonly costUsd?: number;
  readonly sessionTokens: number;
}

/** Where the session's turn stands, as far as this page knows. */
export type TurnState = 'idle' | 'running' | 'cancelling';

/** Everything the session view shows. */
export interface SessionState {
  readonly sessionId: string;
  readonly title?: string;
  readonly workspace?: string;
  readonly items: readonly Item[];
  /** The lowest seq loaded: earlier events are fetched from the log page by page. */
  readonly firstSeq?: number;
  readonly lastSeq: number;
  readonly stream: { readonly text: string; readonly thought: string };
  readonly tools: readonly LiveTool[];
  readonly calls: Readonly<Record<string, OpenCall>>;
  readonly questions: readonly ConfirmationRequested[];
  /** The latest plan the agent sent (`plan` update). */
  readonly plan?: readonly { readonly content: string; readonly status: string }[];
  readonly status: StatusView;
  readonly turn: TurnState;
}

/** A session's view before any event arrived. */
export function emptySession(sessionId: string): SessionState {
  return { sessionId, items: [], lastSeq: 0, stream: { text: '', thought: '' }, tools: [], calls: {}, questions: [], status: { sessionTokens: 0 }, turn: 'idle' };
}

/** `state` with `items` appended, each keyed by its seq and position. */
export function withItems(state: SessionState, ...items: readonly NewItem[]): SessionState {
  if (items.length === 0) return state;
  const added = items.map((item, i) => ({ ...item, key: `${item.seq}.${i}` }) as Item);
  return { ...state, items: [...state.items, ...added] };
}
