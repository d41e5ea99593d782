import type {
  ContentBlock,
  InitializeResponse,
  PromptResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { LogEvent } from './log-event.js';
import type { ConfirmationRequested, ProviderChoice, SessionSummary } from './nodwyn-methods.js';

/** Where a client's connection stands; `reconnecting` resumes every attached session from its last seq. */
export type ConnectionState = 'open' | 'reconnecting' | 'closed';

/** What a client hears from the agent, one event at a time, in the order it arrived. */
export type ClientEvent =
  | { readonly type: 'update'; readonly sessionId: string; readonly update: SessionUpdate }
  | { readonly type: 'log'; readonly sessionId: string; readonly event: LogEvent }
  | { readonly type: 'confirmation'; readonly request: ConfirmationRequested }
  | { readonly type: 'connection'; readonly state: ConnectionState; readonly attempt?: number; readonly error?: string };

/** Answers ACP's `session/request_permission`, sent to the client that sent the prompt. */
export type PermissionHandler = (request: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>;

/**
 * The protocol as a front end uses it (`@nodwyn/client` implements it): ACP's methods and nodwyn's
 * extensions, typed, plus one ordered event stream. A front-end plugin receives one, already connected
 * (in-process or over WebSocket), and never sees the kernel.
 */
export interface FrontendClient {
  /** What the agent answered to `initialize`: its capabilities and version. */
  readonly agent: InitializeResponse;
  /** `session/new` in `cwd` (an absolute path); the new session is attached to this client. */
  newSession(cwd: string): Promise<{ sessionId: string }>;
  /** `session/load`: replays the session's history as `session/update`s, then keeps it attached. */
  loadSession(sessionId: string, cwd: string): Promise<void>;
  /** `session/prompt`; resolves with the stop reason once the turn ended. */
  prompt(sessionId: string, prompt: string | readonly ContentBlock[]): Promise<PromptResponse>;
  /** `session/cancel`: ends the session's running turn as `cancelled`. */
  cancel(sessionId: string): Promise<void>;
  /** `_nodwyn/session/attach`: the log events after `fromSeq`, then every live update. */
  attach(sessionId: string, fromSeq?: number): Promise<{ lastSeq: number }>;
  /** `_nodwyn/session/detach`. */
  detach(sessionId: string): Promise<void>;
  /** `_nodwyn/sessions/list`. */
  listSessions(options?: { workspace?: string; limit?: number }): Promise<readonly SessionSummary[]>;
  /** `_nodwyn/confirmation/answer`; `accepted` false when another answer came first. */
  answerConfirmation(sessionId: string, callId: string, optionId: string): Promise<{ accepted: boolean }>;
  /** `_nodwyn/session/fork`: a new session from a copy of `sessionId`'s window at `atSeq`; it is attached. */
  fork(sessionId: string, atSeq?: number): Promise<{ sessionId: string }>;
  /** `_nodwyn/prompts/history`: the person's earlier prompts in `workspace`, newest first. */
  promptHistory(workspace: string, limit?: number): Promise<readonly string[]>;
  /** `_nodwyn/files/complete`: workspace paths starting with `prefix` (folders end in `/`). */
  completeFiles(workspace: string, prefix: string, limit?: number): Promise<readonly string[]>;
  /** `_nodwyn/providers/list`: what a first-run setup offers, and what is configured. */
  listProviders(): Promise<{ providers: readonly ProviderChoice[]; configured?: { provider: string; model?: string } }>;
  /** `_nodwyn/providers/configure`: sets the provider and model; the key goes to the keychain only. */
  configureProvider(choice: { provider: string; model: string; apiKey?: string; baseUrl?: string }): Promise<{ provider: string; model: string; secret?: string; config: string }>;
  /** `_nodwyn/login-link`: a one-time link that logs a browser into the web console. */
  loginLink(): Promise<{ url: string; expiresInMs: number }>;
  /** Who answers `session/request_permission`; without a handler the question stays for other clients. */
  onPermission(handler: PermissionHandler | undefined): void;
  /** Subscribes to every event; returns the unsubscribe function. */
  onEvent(listener: (event: ClientEvent) => void): () => void;
  /** The highest log seq this client has seen of a session (what a reconnect resumes from). */
  lastSeq(sessionId: string): number;
  /** Closes the connection; pending requests reject. */
  close(): Promise<void>;
}
