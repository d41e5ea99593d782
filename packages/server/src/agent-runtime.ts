import type { Budgets, EventLog, Kernel } from '@nodwyn/kernel';
import type { ClientMcpServer, LoopStrategy, ModelProvider, ProtectedFolder } from '@nodwyn/plugin-api';
import type { AgentCommandEntry } from '@nodwyn/plugin-host';
import type { RepoTrust } from '@nodwyn/runtime';

/**
 * What the agent side needs from a composition root: one log every session lives in, and a kernel scope
 * per workspace (the CLI and the daemon build it from @nodwyn/runtime; tests from a test kernel).
 */
export interface AgentRuntime {
  /** The one log, shared by every workspace's kernel. */
  readonly log: EventLog;
  /** The person's own config file (`$NODWYN_HOME/config.toml`, else the XDG one): provider setup writes it. */
  readonly configFile: string;
  /** nodwyn's data and config folders, which file completion never lists (the kernel refuses them to every tool). */
  readonly protectedFolders: readonly ProtectedFolder[];
  /** The kernel scope of a workspace (a real path), booted on first use and kept. */
  scope(workspace: string): Promise<AgentScope>;
  /**
   * Re-boots every workspace scope booted so far with config.toml as it is now (settings saved from a
   * console); answers how many booted again. Called only while no turn runs.
   */
  restart(): Promise<number>;
  /** Stops every scope and closes the log. */
  close(): Promise<void>;
}

/** A session's own model (`/model`), over what config.toml says; either part may be absent. */
export interface ModelChoice {
  readonly provider?: string;
  readonly model?: string;
}

/** One workspace's kernel, and what a prompt in it runs with. */
export interface AgentScope {
  readonly workspace: string;
  readonly kernel: Kernel;
  /**
   * The provider, loop strategy and budgets the person configured, made fresh for each prompt, with the
   * person's `[provider]` as config.toml says it now (a provider set up while the agent runs is used by
   * the next prompt) and `choice`, the session's own model, over it.
   */
  turn(choice?: ModelChoice): Promise<TurnSetup>;
  /** The agent commands (slash commands) this scope's plugins contributed, with their owners. */
  agentCommands(): readonly AgentCommandEntry[];
  /** Where the workspace's repository config (`.nodwyn/`) stands with the person: read now, not at boot. */
  trust(): RepoTrust;
  /**
   * Starts the MCP servers a client handed over with a session (its own, the person's editor's), through
   * the MCP plugin, and resolves once they listed their tools or a few seconds passed. Absent without one.
   */
  attachMcpServers?(servers: readonly ClientMcpServer[], client: string): Promise<void>;
}

/** What one prompt runs with. */
export interface TurnSetup {
  readonly provider: ModelProvider;
  /** The model that writes summaries, when not `provider`. */
  readonly summaryProvider?: ModelProvider;
  readonly strategy: LoopStrategy;
  readonly strategyOwner?: string;
  readonly budgets: Partial<Budgets>;
}
