import 'reflect-metadata';
import { Kernel } from '@nodwyn/kernel';
import { API_VERSION, EgressSenderToken, TaintToken, type ProtectedFolder } from '@nodwyn/plugin-api';
import { PluginHost } from '@nodwyn/plugin-host';
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConfig, type Config } from './config.js';
import { defaultDistribution } from './distribution.js';
import { configPath, dataDir, ensureDataDir, logPaths } from './paths.js';
import { withRepoConfig } from './repo-config.js';
import { forTerminal } from './terminal-text.js';

/** A booted nodwyn: the kernel, the plugin host with the distribution loaded, and the config. */
export interface Runtime {
  readonly kernel: Kernel;
  readonly host: PluginHost;
  readonly config: Config;
  readonly workspace: string;
  close(): Promise<void>;
}

/** Choices of one command that change what plugins see. */
export interface BootOptions {
  /** `nodwyn run --judge`: the judge scores every ask's plan (`[judge] mode = "on"`). */
  readonly judge?: boolean;
}

/** Opens the log in the data dir and loads the distribution, with the current directory as workspace. */
export async function boot(options: BootOptions = {}): Promise<Runtime> {
  const dir = dataDir();
  ensureDataDir(dir);
  const userConfig = loadConfig(configPath());
  const workspace = realpathSync(process.cwd());
  // The workspace's .nodwyn/ config applies only once trusted; notices go to stderr, so --json stays pure.
  const repoConfig = withRepoConfig(userConfig, workspace, (line) => process.stderr.write(`nodwyn: ${forTerminal(line)}\n`));
  const config = options.judge ? { ...repoConfig, judge: { ...judgeSection(repoConfig), mode: 'on' } } : repoConfig;
  // Third-party plugins resolve from the config folder, never the workspace: a cloned repository must not
  // be able to put code in the agent by shipping its own node_modules. For the same reason the plugin
  // list comes from the user's config alone, whatever a repository's config says.
  const pluginRoot = dirname(configPath());
  // The strike limit comes from the user's config only: a repository's `[policy]` is dropped, so it cannot buy a model more probes.
  const kernel = Kernel.open({ ...logPaths(dir), workspace, protectedFolders: protectedFolders(dir, pluginRoot), strikeLimit: userConfig.policy?.max_strikes });
  const host = new PluginHost({
    kernel: kernel.port(),
    apiVersion: API_VERSION,
    settings: config,
    workspace,
    dataDir: dir,
    disabled: userConfig.distribution?.disabled ?? [],
  });
  kernel.useSender(() => host.service(EgressSenderToken));
  kernel.useTaint(() => host.service(TaintToken));
  try {
    await host.load(defaultDistribution(userConfig, pluginRoot));
    await host.start();
  } catch (error) {
    kernel.close();
    throw error;
  }
  return {
    kernel,
    host,
    config,
    workspace,
    async close() {
      await host.stopAll();
      kernel.close();
    },
  };
}

/**
 * nodwyn's own folders, which no file tool or sandbox door may reach: what they hold (bindings, keys, the
 * log, plugins and the config that loads them) decides the agent's authority, so only the person edits it.
 */
function protectedFolders(data: string, config: string): ProtectedFolder[] {
  const folders = [{ path: data, name: "nodwyn's data folder (its log, keys and bindings)" }];
  return resolve(config) === resolve(data) ? folders : [...folders, { path: config, name: "nodwyn's config folder (its config.toml and plugins)" }];
}

function judgeSection(config: Config): Record<string, unknown> {
  const section = config.judge;
  return typeof section === 'object' && section !== null ? (section as Record<string, unknown>) : {};
}

/** Boots, runs `body`, and always shuts down. */
export async function withRuntime<T>(body: (runtime: Runtime) => Promise<T>, options: BootOptions = {}): Promise<T> {
  const runtime = await boot(options);
  try {
    return await body(runtime);
  } finally {
    await runtime.close();
  }
}
