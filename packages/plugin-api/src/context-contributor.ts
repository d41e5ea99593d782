import type { ToolSpec } from './provider.js';

/** Contributor ids: short, lowercase, the `name` of `context:<name>` in a manifest. */
export const CONTEXT_CONTRIBUTOR_ID = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Where a workspace's repository stands with the person (docs/architecture.md §6, repository trust):
 * `trusted` once `nodwyn trust` pinned its `.nodwyn/` folder, `changed` when that folder changed since,
 * `untrusted` when it was never trusted, `none` when it has no `.nodwyn/` folder to trust.
 */
export type WorkspaceTrust = 'none' | 'untrusted' | 'changed' | 'trusted';

/** One part of the agent's brief (its system prompt), as a contributor offers it. */
export interface ContextPart {
  /**
   * Unique in a session: a part is logged once per session under its id, so a later turn (or a new
   * process resuming the session) sends the same text. Prefer `<contributor>.<what>` (`workspace.environment`).
   */
  readonly id: string;
  /** Where the text comes from, for a person reading the log: `nodwyn`, `environment`, a file's path. */
  readonly source: string;
  /** The text the model reads, as a self-contained section (a heading of its own is welcome). */
  readonly text: string;
}

/** What a contributor is asked with, once per turn. */
export interface ContextRequest {
  readonly session: string;
  /** The workspace root, a real path. */
  readonly workspace: string;
  /** The tools the model is offered in this turn. */
  readonly tools: readonly ToolSpec[];
  readonly signal: AbortSignal;
  /**
   * The ids of the parts the session already logged. A part is logged once per session, so a contributor
   * may skip the work of one already here (the environment's git status): it would not be logged again.
   */
  readonly logged: ReadonlySet<string>;
}

/**
 * Offers parts of the agent's brief, contributed by a plugin of kind `context`
 * (`provides: ['context:<id>']`, `ctx.context.register(contributor)`). The loop strategy asks every
 * contributor at the start of a turn (`TurnFloor.context.contributed()`) and logs the parts it keeps
 * (`TurnFloor.context.add`): each as one `context.added` event per session, through the text layers, so
 * a secret in a context file never reaches the log or the model. What the model is sent as its system
 * prompt is derived from those events alone (docs/architecture.md §10).
 *
 * A part whose id was logged before in the session is not logged again: return the same ids on every
 * turn. A contributor that throws is skipped for the turn, and the failure logged (`context.failed`).
 */
export interface ContextContributor {
  /** Matches `CONTEXT_CONTRIBUTOR_ID`. */
  readonly id: string;
  /** One line: what this contributor adds to the brief. */
  readonly description: string;
  parts(request: ContextRequest): Promise<readonly ContextPart[]> | readonly ContextPart[];
}

/** A part as the session's log holds it: its text after the text layers, and its estimated tokens. */
export interface LoggedContextPart extends ContextPart {
  /** The `context.added` event's seq. */
  readonly seq: number;
  /** Estimated tokens of `text`, counted against the window budget of every model call. */
  readonly tokens: number;
}

/**
 * The agent's brief on the turn floor (docs/architecture.md §10). The loop strategy builds it: it asks
 * the contributors, chooses and orders the parts, and logs them; the floor sends the logged parts, in
 * log order and joined by blank lines, as the system prompt of every model call of the session.
 */
export interface TurnContext {
  /** The parts every registered contributor offers now, in contributor order; nothing is logged. */
  contributed(): Promise<readonly ContextPart[]>;
  /**
   * Logs each part whose id the session has not logged yet as `context.added { id, source, text, tokens }`,
   * its text through the text layers first. Returns the session's parts as logged, in order.
   */
  add(parts: readonly ContextPart[]): readonly LoggedContextPart[];
  /** The session's parts as logged, in order: exactly what the system prompt is made of. */
  logged(): readonly LoggedContextPart[];
}
