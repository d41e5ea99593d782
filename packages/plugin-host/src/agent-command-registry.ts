import type { AgentCommand } from '@nodwyn/plugin-api';

/** One agent command with the plugin that registered it. */
export interface AgentCommandEntry {
  readonly command: AgentCommand;
  /** The plugin that registered it. */
  readonly owner: string;
}

/**
 * The agent commands plugins registered. The host keeps them, as it keeps front ends: the kernel never
 * runs a slash command (the protocol server does, for a person), so the kernel has no use for them and
 * stays small (docs/architecture.md §5 and §9).
 */
export class AgentCommandRegistry {
  readonly #items = new Map<string, AgentCommandEntry>();

  add(owner: string, command: AgentCommand): void {
    this.#items.set(command.name, { command, owner });
  }

  /** Every registered command with its owner, in registration order. */
  entries(): readonly AgentCommandEntry[] {
    return [...this.#items.values()];
  }
}
