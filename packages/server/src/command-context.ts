import type { AgentCommandInput } from '@nodwyn/plugin-api';
import type { Config } from '@nodwyn/runtime';
import type { AgentScope } from './agent-runtime.js';

/** What an agent command the server answers itself is run with. */
export interface CommandContext {
  /** The session it was typed in. */
  readonly session: string;
  readonly scope: AgentScope;
  /** What followed the command's name, trimmed. */
  readonly input: string;
  /** Aborted by `session/cancel`. */
  readonly signal: AbortSignal;
  /** The person's config.toml as it is now (`[provider]`, `[prices]`). */
  personConfig(): Config;
  /** Runs a turn of the session with a command's strategy (see `AgentCommandInput.turn`). */
  readonly turn?: AgentCommandInput['turn'];
}
