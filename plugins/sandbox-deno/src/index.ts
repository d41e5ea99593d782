import { definePlugin, type PluginDefinition } from '@nodwyn/plugin-api';
import { sandboxRunnerToken } from '@nodwyn/plugin-api/sandbox';
import { createDenoRunner, type DenoRunnerOptions } from './deno-runner.js';
import { denoError, PLUGIN_NAME } from './errors.js';

export { denoArgv, BASE_FLAGS, type DenoArgvInput } from './deno-argv.js';
export { denoBinaryPackage, resolveDenoBinary } from './deno-binary.js';
export { createDenoRunner, DENO_RUNNER_DESCRIPTION, type DenoRunnerOptions } from './deno-runner.js';
export { SandboxDenoErrorCode } from './errors.js';

/** `unguarded_egress` from `[plugins."@nodwyn/plugin-sandbox-deno"]`: only a real boolean counts. */
function unguardedEgressOf(config: Readonly<Record<string, unknown>>): boolean {
  const value = config.unguarded_egress;
  if (value === undefined || typeof value === 'boolean') return value === true;
  throw denoError('CONFIG_INVALID', {
    operation: 'register',
    failed_parameter: `$.plugins["${PLUGIN_NAME}"].unguarded_egress`,
    received_value: value,
    expected: 'true or false',
    remediation: `Set unguarded_egress under [plugins."${PLUGIN_NAME}"] in config.toml to true or false (without quotes), or remove it.`,
  });
}

/** The plugin, with runner options fixed in code (tests, benchmarks, distributions); config may still set `unguarded_egress`. */
export function createSandboxDenoPlugin(options: Pick<DenoRunnerOptions, 'binary' | 'tempDir' | 'unguardedEgress'> = {}): PluginDefinition {
  return definePlugin({
    manifest: {
      name: PLUGIN_NAME,
      version: '0.1.0',
      apiVersion: '^0.1.0',
      // Its section shapes the sandbox (`unguarded_egress` opens the network): only the person's own config sets it.
      userOnlyConfig: true,
      description: "A sandbox runner on Deno (the npm registry's binary, called by its path) with permission flags derived from the grants.",
      provides: ['service:sandbox.deno'],
      requires: [],
      permissions: ['process.spawn', 'fs.read', 'fs.write'],
    },
    register(ctx) {
      const unguardedEgress = options.unguardedEgress === true || unguardedEgressOf(ctx.config);
      ctx.services.provide(sandboxRunnerToken('deno'), createDenoRunner({ ...options, unguardedEgress, forbidden: [ctx.dataDir] }));
    },
  });
}

/**
 * `sandbox.deno`: runs model-written code in a fresh Deno process per run. Reads `unguarded_egress`
 * (default false) from its config section; see the README for what it contains and what not.
 */
export const sandboxDenoPlugin = createSandboxDenoPlugin();
