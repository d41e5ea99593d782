import { McpServersToken } from '@nodwyn/plugin-api';
import type { AgentRuntime } from '@nodwyn/server';
import { configPath, openRuntime, pluginRoot, protectedFolders, repoTrust, turnSetup, withCurrentProvider, type Runtime } from '@nodwyn/runtime';
import { cliBoot } from './cli-boot.js';

/**
 * The runtime `nodwyn acp` and `nodwyn serve` give the agent side: the default distribution over the one
 * log of the data folder, a kernel scope per workspace, and each prompt run with what `config.toml` sets
 * (`[provider]`, `[loop]`, `[budgets]`), as `nodwyn run` does without flags. `[provider]` is read again
 * for every prompt, so a provider set up while the daemon runs is used by the next one; a session's own
 * model (`/model`) goes over it.
 */
export async function openAgentRuntime(): Promise<AgentRuntime> {
  return agentRuntimeOver(await openRuntime(cliBoot()));
}

/**
 * The agent side over a runtime the caller opened, so an in-process front end and the agent it talks to
 * share one boot of each workspace. Closing it closes `runtime`.
 */
export function agentRuntimeOver(runtime: Runtime): AgentRuntime {
  const configFile = configPath();
  return {
    log: runtime.log,
    configFile,
    protectedFolders: protectedFolders(runtime.dataDir, pluginRoot()),
    async scope(workspace) {
      const scope = await runtime.scope(workspace);
      return {
        workspace: scope.workspace,
        kernel: scope.kernel,
        turn: (choice) => turnSetup({ ...scope, config: withCurrentProvider(scope.config, configFile) }, choice),
        agentCommands: () => scope.host.agentCommands(),
        trust: () => repoTrust(scope.workspace),
        attachMcpServers: async (servers, client) => scope.host.service(McpServersToken)?.attach(servers, client),
      };
    },
    restart: () => runtime.restart(),
    close: () => runtime.close(),
  };
}
