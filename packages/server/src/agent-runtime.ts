import type { Budgets, EventLog, Kernel } from '@nodwyn/kernel';
import type { LoopStrategy, ModelProvider } from '@nodwyn/plugin-api';

/**
 * What the agent side needs from a composition root: one log every session lives in, and a kernel scope
 * per workspace (the CLI and the daemon build it from @nodwyn/runtime; tests from a test kernel).
 */
export interface AgentRuntime {
  /** The one log, shared by every workspace's kernel. */
  readonly log: EventLog;
  /** The kernel scope of a workspace (a real path), booted on first use and kept. */
  scope(workspace: string): Promise<AgentScope>;
  /** Stops every scope and closes the log. */
  close(): Promise<void>;
}

/** One workspace's kernel, and what a prompt in it runs with. */
export interface AgentScope {
  readonly workspace: string;
  readonly kernel: Kernel;
  /** The provider, loop strategy and budgets the person configured, made fresh for each prompt. */
  turn(): Promise<TurnSetup>;
}

/** What one prompt runs with. */
export interface TurnSetup {
  readonly provider: ModelProvider;
  readonly strategy: LoopStrategy;
  readonly strategyOwner?: string;
  readonly budgets: Partial<Budgets>;
}
