import { definePlugin, type PluginDefinition } from '@nodwyn/plugin-api';
import { sandboxRunnerToken } from '@nodwyn/plugin-api/sandbox';
import { nodeError, PLUGIN_NAME } from './errors.js';
import { createNodeRunner, type NodeRunnerOptions } from './node-runner.js';

export { SandboxNodeErrorCode } from './errors.js';
export { nodeArgv, permissionFlag, type NodeArgvInput } from './node-argv.js';
export { createNodeRunner, NODE_RUNNER_DESCRIPTION, type NodeRunnerOptions } from './node-runner.js';

/** `network_cut` from `[plugins."@nodwyn/plugin-sandbox-node"]`: only a real boolean counts. */
function networkCutOf(config: Readonly<Record<string, unknown>>): boolean {
  const value = config.network_cut;
  if (value === undefined || typeof value === 'boolean') return value === true;
  throw nodeError('CONFIG_INVALID', {
    operation: 'register',
    failed_parameter: `$.plugins["${PLUGIN_NAME}"].network_cut`,
    received_value: value,
    expected: 'true or false',
    remediation: `Set network_cut under [plugins."${PLUGIN_NAME}"] in config.toml to true or false (without quotes), or remove it.`,
  });
}

/**
 * The plugin, with its options fixed in code instead of read from config (tests, and distributions that
 * know their machine has no network). Config still cannot turn `networkCut` off once given here.
 */
export function createSandboxNodePlugin(options: Pick<NodeRunnerOptions, 'networkCut' | 'tempDir'> = {}): PluginDefinition {
  return definePlugin({
    manifest: {
      name: PLUGIN_NAME,
      version: '0.1.0',
      apiVersion: '^0.1.0',
      // Its section shapes the sandbox (`network_cut`): only the person's own config sets it.
      userOnlyConfig: true,
      description: "A sandbox runner on Node's permission model in a child process, for code that needs Node APIs; it cannot restrict the network.",
      provides: ['service:sandbox.node'],
      requires: [],
      permissions: ['process.spawn', 'fs.read', 'fs.write'],
    },
    register(ctx) {
      const networkCut = options.networkCut === true || networkCutOf(ctx.config);
      ctx.services.provide(sandboxRunnerToken('node'), createNodeRunner({ ...options, networkCut, forbidden: [ctx.dataDir] }));
    },
  });
}

/**
 * `sandbox.node`: runs model-written code in a child `node` process under the permission model. Reads
 * `network_cut` (default false) from its config section; see the README for what it contains and what not.
 */
export const sandboxNodePlugin = createSandboxNodePlugin();
