import { Kernel, type EventLog } from '@nodwyn/kernel';
import { API_VERSION, EgressSenderToken, TaintToken, type ProtectedFolder } from '@nodwyn/plugin-api';
import { PluginHost, type Distribution } from '@nodwyn/plugin-host';
import { resolve } from 'node:path';
import type { Config } from './config.js';
import { pluginFailures, type PluginFailure } from './plugin-failure.js';
import type { PreloadedDistribution } from './preload-distribution.js';
import { repoTrust, withRepoConfig } from './repo-config.js';

/** One workspace's share of a runtime: its kernel over the shared log, and its plugins. */
export interface WorkspaceScope {
  readonly kernel: Kernel;
  readonly host: PluginHost;
  /** What its plugins see: the user's config, the trusted repository's over it, then the runtime's overrides. */
  readonly config: Config;
  /** The workspace's real path. */
  readonly workspace: string;
  /** The distribution its host loaded. */
  readonly distribution: Distribution;
  /** Stops its plugins and lets go of its kernel; the shared log stays open. Later calls do nothing. */
  close(): Promise<void>;
}

/** What a scope is opened from (the runtime's pieces, and the workspace). */
export interface ScopeInput {
  readonly log: EventLog;
  /** The user's own config: the plugin list, the disabled plugins and the strike limit come from it alone. */
  readonly user: Config;
  /** A real path. */
  readonly workspace: string;
  readonly dataDir: string;
  readonly pluginRoot: string;
  readonly preloaded: PreloadedDistribution;
  readonly overrides?: (config: Config) => Config;
  readonly onNotice: (line: string) => void;
  readonly onPluginFailed?: (failure: PluginFailure) => void;
  readonly env?: NodeJS.ProcessEnv;
}

/** Boots one workspace: merges its settings, builds its kernel over the shared log, loads and starts its plugins. */
export async function openScope(input: ScopeInput): Promise<WorkspaceScope> {
  const { user, workspace, dataDir } = input;
  // The workspace's .nodwyn/ config applies only once trusted; what it may not set is dropped with a notice.
  const trust = repoTrust(workspace, input.env);
  const merged = withRepoConfig(user, workspace, { userOnly: input.preloaded.userOnly, notice: input.onNotice, env: input.env, trust });
  const config = input.overrides ? input.overrides(merged) : merged;
  // The strike limit comes from the user's config only: a repository's `[policy]` is dropped, so it cannot buy a model more probes.
  const kernel = Kernel.over(input.log, { workspace, protectedFolders: protectedFolders(dataDir, input.pluginRoot), strikeLimit: user.policy?.max_strikes });
  // The person's own files (their AGENTS.md) sit in the config folder, beside config.toml and the plugins.
  const host = new PluginHost({ kernel: kernel.port(), apiVersion: API_VERSION, settings: config, workspace, trust: trust.status, dataDir, configDir: input.pluginRoot, disabled: user.distribution?.disabled ?? [] });
  kernel.useSender(() => host.service(EgressSenderToken));
  kernel.useTaint(() => host.service(TaintToken));
  const { distribution } = input.preloaded;
  try {
    await host.load(distribution);
    await host.start();
  } catch (error) {
    kernel.close();
    throw error;
  } finally {
    // A required plugin's failure fails the boot with its own envelope; the optional ones are told here.
    for (const failure of pluginFailures(host.report().filter((row) => row.optional))) input.onPluginFailed?.(failure);
  }
  let closed: Promise<void> | undefined;
  return {
    kernel,
    host,
    config,
    workspace,
    distribution,
    close: () => {
      closed ??= host.stopAll().then(() => kernel.close());
      return closed;
    },
  };
}

/**
 * nodwyn's own folders, which no file tool or sandbox door may reach: what they hold (bindings, keys, the
 * log, plugins and the config that loads them) decides the agent's authority, so only the person edits it.
 */
export function protectedFolders(data: string, config: string): ProtectedFolder[] {
  const folders = [{ path: data, name: "nodwyn's data folder (its log, keys and bindings)" }];
  return resolve(config) === resolve(data) ? folders : [...folders, { path: config, name: "nodwyn's config folder (its config.toml and plugins)" }];
}
