import type { Envelope } from '@nodwyn/protocol';
import type { LoopStrategy } from './loop.js';
/** Agent command names: what a person types after `/`, short and plain so every front end can offer them. */
export const AGENT_COMMAND_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Names no plugin may take: the agent's own commands (`/title`, `/tools`, `/model`, `/cost`, `/verify`,
 * `/trust`) and the ones front ends answer themselves (`/help`, `/new`, `/sessions`, `/resume`, `/fork`,
 * `/quit`). A plugin's `/model` would otherwise shadow the agent's, or a front end's `/quit` would hide it.
 */
export const RESERVED_AGENT_COMMANDS: readonly string[] = ['title', 'tools', 'model', 'cost', 'verify', 'trust', 'help', 'new', 'sessions', 'resume', 'fork', 'quit'];

/** How a turn an agent command ran ended (see `AgentCommandInput.turn`). */
export interface AgentCommandTurn {
  /** `answer` when the strategy returned; otherwise why the turn stopped (`cancelled`, `budget`, `failed`, …). */
  readonly reason: string;
  readonly answer?: string;
  readonly envelope?: Envelope;
}

/** What one run of an agent command gets. */
export interface AgentCommandInput {
  /** The session it was typed in. */
  readonly session: string;
  /** What followed the command's name, trimmed (`/capabilities slug` → `slug`); empty when nothing did. */
  readonly input: string;
  /** Aborted when the person cancels (`session/cancel`); a long command should stop promptly. */
  readonly signal: AbortSignal;
  /**
   * Runs one turn of the session with `strategy` and the session's provider and budgets, logging no prompt
   * (`/compact` summarises the window this way). Offered where the agent can run turns (the server); the
   * turn is logged like any other, and the person can cancel it.
   */
  readonly turn?: (strategy: LoopStrategy) => Promise<AgentCommandTurn>;
}

/**
 * A slash command the agent answers itself, without a model call, contributed by a plugin of kind
 * `agent-command` (`provides: ['agent-command:<name>']`). The server announces it to every front end in
 * ACP's `available_commands_update` and runs it when a prompt is `/<name> …`; what it returns passes the
 * text layers before any client sees it. A command that fails throws an envelope, which the person sees
 * as a message: it never ends the session.
 */
export interface AgentCommand {
  /** The name after `/`, matching `AGENT_COMMAND_NAME` and not one of `RESERVED_AGENT_COMMANDS`. */
  readonly name: string;
  /** One line for the command list front ends show. */
  readonly description: string;
  /** What may follow the name, shown as a placeholder (`NAME`, `the new title`); none when it takes nothing. */
  readonly hint?: string;
  /** Answers the command: plain text (Markdown is fine), shown to the person and not logged. */
  run(input: AgentCommandInput): Promise<string>;
}
