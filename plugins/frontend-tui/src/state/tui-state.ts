import type { ConnectionState, ProviderChoice, SessionSummary } from '@nodwyn/protocol';
import type { FinishedItem, NewItem, ToolOutcome } from './finished-item.js';
import type { PermissionRequest } from './protocol-types.js';

/** A tool call that runs now, drawn in the live region with a spinner until the log records its result. */
export interface LiveTool {
  /** ACP's id of the call. */
  readonly toolCallId: string;
  /** The model's id of the call, once the logged message that made it is known. */
  readonly callId?: string;
  readonly title: string;
  readonly status: 'pending' | 'in_progress' | 'completed' | 'failed';
  /** When the TUI first heard of it (ms since the epoch). */
  readonly startedAt: number;
  /** The result its last update carried, used when the log records it. */
  readonly outcome?: ToolOutcome;
  /** How far it has got, as the tool last reported (`3/10 compiling`), already sanitized. */
  readonly progress?: string;
}

/** A call the model made that has no logged result yet. */
export interface OpenCall {
  readonly name: string;
  readonly args: unknown;
  readonly title: string;
  readonly toolCallId: string;
}

/** A confirmation waiting for a person. */
export interface Question {
  readonly sessionId: string;
  readonly callId: string;
  readonly toolCallId: string;
  readonly tool: string;
  /** The call's title (`shell git push`), when known. */
  readonly title?: string;
  readonly tier: string;
  readonly reason: string;
  readonly security: boolean;
  readonly options: PermissionRequest['options'];
  /** For a secret leaving: each secret's class and where it would go (never a value). */
  readonly subjects?: readonly { readonly class: string; readonly destination: string }[];
  /** What the call would do, a line each (the primitive's preview). */
  readonly effects?: readonly string[];
  /** True when this client was asked (`session/request_permission`) and answers through its handler. */
  readonly asked: boolean;
}

/** Tokens, cost and context of the session and of its last turn. */
export interface UsageView {
  /** The last model call's tokens: what the next call's window starts from. */
  readonly used?: number;
  /** The window budget, in tokens. */
  readonly size?: number;
  readonly costUsd?: number;
  readonly sessionTokens: number;
  /** True while the totals come only from the events shown (a session continued from its tail). */
  readonly partial: boolean;
  readonly turnTokens: number;
  readonly turnCostUsd: number;
}

/** Where the session's turn stands, as far as this client knows. */
export type TurnState = 'idle' | 'sending' | 'running' | 'cancelling';

/** A slash command the agent announced (`available_commands_update`). */
export interface AgentCommand {
  readonly name: string;
  readonly description: string;
  readonly hint?: string;
}

/** Everything the TUI shows, derived from the client's events and the person's actions. */
export interface TuiState {
  readonly session?: { readonly id: string; readonly title?: string };
  /**
   * Printed once into the scrollback, in order, and never drawn again; it only grows (another session's
   * items follow the last one's, as they do in the terminal).
   */
  readonly finished: readonly FinishedItem[];
  readonly nextId: number;
  /** The answer and the thinking streaming now. */
  readonly stream: { readonly text: string; readonly thought: string };
  readonly tools: readonly LiveTool[];
  readonly calls: Readonly<Record<string, OpenCall>>;
  readonly questions: readonly Question[];
  readonly turn: TurnState;
  /** The prompt sent, shown until the log records it. */
  readonly echo?: string;
  readonly usage: UsageView;
  readonly model?: { readonly provider: string; readonly model?: string };
  readonly commands: readonly AgentCommand[];
  readonly connection: { readonly state: ConnectionState; readonly attempt?: number; readonly error?: string };
  readonly showThinking: boolean;
  readonly picker?: { readonly sessions: readonly SessionSummary[] };
  readonly setup?: { readonly providers: readonly ProviderChoice[] };
  /** The person's earlier prompts in this workspace, newest first. */
  readonly history: readonly string[];
}

export const EMPTY_USAGE: UsageView = { sessionTokens: 0, partial: true, turnTokens: 0, turnCostUsd: 0 };

/** The state before anything happened. */
export function initialState(): TuiState {
  return {
    finished: [],
    nextId: 1,
    stream: { text: '', thought: '' },
    tools: [],
    calls: {},
    questions: [],
    turn: 'idle',
    usage: EMPTY_USAGE,
    commands: [],
    connection: { state: 'open' },
    showThinking: false,
    history: [],
  };
}

/** `state` with `items` printed after what it has. */
export function withItems(state: TuiState, ...items: readonly NewItem[]): TuiState {
  if (items.length === 0) return state;
  let nextId = state.nextId;
  const added = items.map((item) => ({ ...item, id: nextId++ }) as FinishedItem);
  return { ...state, finished: [...state.finished, ...added], nextId };
}
