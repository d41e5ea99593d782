import type { AgentRuntime } from '@nodwyn/server';
import { openRuntime, turnSetup } from '@nodwyn/runtime';
import { cliBoot } from './cli-boot.js';

/**
 * The runtime `nodwyn acp` and `nodwyn serve` give the agent side: the default distribution over the one
 * log of the data folder, a kernel scope per workspace, and each prompt run with what `config.toml` sets
 * (`[provider]`, `[loop]`, `[budgets]`), as `nodwyn run` does without flags.
 */
export async function openAgentRuntime(): Promise<AgentRuntime> {
  const runtime = await openRuntime(cliBoot());
  return {
    log: runtime.log,
    async scope(workspace) {
      const scope = await runtime.scope(workspace);
      return { workspace: scope.workspace, kernel: scope.kernel, turn: () => turnSetup(scope) };
    },
    close: () => runtime.close(),
  };
}
