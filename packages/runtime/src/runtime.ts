import 'reflect-metadata';
import { EventLog } from '@nodwyn/kernel';
import type { Distribution } from '@nodwyn/plugin-host';
import { realpathSync, statSync } from 'node:fs';
import { loadConfig, type Config } from './config.js';
import { runtimeError } from './errors.js';
import { mergeConfig } from './repo-config.js';
import { configPath, dataDir, ensureDataDir, logPaths, pluginRoot } from './paths.js';
import { preloadDistribution, type PreloadedDistribution } from './preload-distribution.js';
import type { PluginFailure } from './plugin-failure.js';
import { openScope, type WorkspaceScope } from './workspace-scope.js';

/** The plugins a runtime loads: a distribution, or one made from the user's config and the plugin folder. */
export type DistributionSource = Distribution | ((config: Config, pluginRoot: string) => Distribution);

/** The distribution `source` names for a user's config, its third-party plugins resolved from `root`. */
export function distributionFor(source: DistributionSource, config: Config, root: string): Distribution {
  return typeof source === 'function' ? source(config, root) : source;
}

/** How to open a runtime. */
export interface RuntimeOptions {
  /** What every workspace loads (the app's default distribution takes the user's config and plugin folder). */
  readonly distribution: DistributionSource;
  /**
   * Where notices about a workspace's repository config go, one line each (`ignoring .nodwyn/ (not
   * trusted; …)`). The line can hold a repository's file names: escape it before a terminal shows it.
   */
  readonly onNotice: (line: string) => void;
  /**
   * Told of each optional plugin that failed when a workspace booted (required ones fail the boot).
   * Called again on every boot (each workspace, each restart): the app tells the person once.
   */
  readonly onPluginFailed?: (failure: PluginFailure) => void;
  /**
   * Default configuration under the user's own (a distribution file's `[config]`): the user's config.toml
   * is merged over it, key by key, and wins.
   */
  readonly defaults?: Config;
  /** Applied last to each workspace's merged config (`nodwyn run --judge` turns the judge on). */
  readonly overrides?: (config: Config) => Config;
  /** Where `NODWYN_HOME` and the XDG folders are read from; `process.env` by default. */
  readonly env?: NodeJS.ProcessEnv;
}

/** Choices for one workspace's scope; they apply when the scope is booted, not to a cached one. */
export interface ScopeOptions {
  /** Where this workspace's notices go instead of the runtime's `onNotice`. */
  readonly onNotice?: (line: string) => void;
}

/**
 * nodwyn opened for any number of workspaces over ONE log (the daemon, the desktop app), or for one
 * (a CLI command, see `boot`): the data folder, the user's config and the shared log, plus one scope per
 * workspace, each its own kernel and plugin host.
 */
export interface Runtime {
  /** The user's own config (`config.toml`), before any repository's. */
  readonly config: Config;
  readonly dataDir: string;
  /** The one log every workspace's kernel writes to. */
  readonly log: EventLog;
  /** The distribution every scope loads. */
  readonly distribution: Distribution;
  /**
   * The scope of `workspace` (any path to it; scopes are kept per real path), booted on first use:
   * concurrent calls for one workspace share one boot, and a boot that failed is tried again next time.
   */
  scope(workspace: string, options?: ScopeOptions): Promise<WorkspaceScope>;
  /**
   * Reads the user's config.toml again and re-boots every workspace booted so far with it: each scope's
   * plugins are stopped, then the workspace boots afresh (the distribution's plugin list stays as opened).
   * Answers how many workspaces booted again; one that failed boots again on its next use. The caller
   * makes sure no turn runs (a running turn would lose its plugins).
   */
  restart(): Promise<number>;
  /** Stops every scope's plugins and closes the log. Later calls do nothing. */
  close(): Promise<void>;
}

/**
 * Opens the data folder (created when missing), the user's config and the shared log. The distribution's
 * plugins are loaded (their manifests read) when the first workspace boots, not here: what needs only the
 * log (listing sessions, replaying one, a front end's first frame) is not kept waiting for every plugin's
 * module to load. Nothing of any workspace is read until `scope` is called.
 */
export async function openRuntime(options: RuntimeOptions): Promise<Runtime> {
  const env = options.env ?? process.env;
  const dir = dataDir(env);
  ensureDataDir(dir);
  const config = userConfig(options.defaults, env);
  const root = pluginRoot(env);
  const distribution = distributionFor(options.distribution, config, root);
  const paths = logPaths(dir);
  const log = EventLog.open({ path: paths.dbPath, keyPath: paths.keyPath });
  return new SharedLogRuntime({ ...options, env, config, dataDir: dir, pluginRoot: root, distribution, log });
}

interface RuntimeParts extends RuntimeOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly config: Config;
  readonly dataDir: string;
  readonly pluginRoot: string;
  readonly distribution: Distribution;
  readonly log: EventLog;
}

class SharedLogRuntime implements Runtime {
  config: Config;
  readonly dataDir: string;
  readonly log: EventLog;
  readonly distribution: Distribution;
  #parts: RuntimeParts;
  /** The distribution's plugins, loaded once, by the first boot. */
  #preloaded: Promise<PreloadedDistribution> | undefined;
  /** Keyed by real path; a boot in progress is here too, so concurrent callers share it. */
  readonly #scopes = new Map<string, Promise<WorkspaceScope>>();
  #closed: Promise<void> | undefined;

  constructor(parts: RuntimeParts) {
    this.#parts = parts;
    this.config = parts.config;
    this.dataDir = parts.dataDir;
    this.log = parts.log;
    this.distribution = parts.distribution;
  }

  async scope(workspace: string, options: ScopeOptions = {}): Promise<WorkspaceScope> {
    if (this.#closed) throw runtimeError('RUNTIME_CLOSED', { operation: 'runtime.scope', received_value: workspace, remediation: 'The runtime was closed; open a new one to boot a workspace.' });
    const real = realWorkspace(workspace);
    const cached = this.#scopes.get(real);
    if (cached) return cached;
    const booting = this.#boot(real, options);
    this.#scopes.set(real, booting);
    // Not cached when it failed: the next call boots again (the person may have fixed the config).
    booting.catch(() => this.#forget(real, booting));
    return booting;
  }

  async #boot(workspace: string, options: ScopeOptions): Promise<WorkspaceScope> {
    const parts = this.#parts;
    this.#preloaded ??= preloadDistribution(parts.distribution, parts.config.distribution?.disabled ?? []);
    const preloaded = await this.#preloaded;
    const scope = await openScope({
      log: parts.log,
      user: parts.config,
      workspace,
      dataDir: parts.dataDir,
      pluginRoot: parts.pluginRoot,
      preloaded,
      overrides: parts.overrides,
      onNotice: options.onNotice ?? parts.onNotice,
      onPluginFailed: parts.onPluginFailed,
      env: parts.env,
    });
    const own = this.#scopes.get(workspace);
    return {
      ...scope,
      close: async () => {
        if (own) this.#forget(workspace, own);
        await scope.close();
      },
    };
  }

  #forget(workspace: string, booting: Promise<WorkspaceScope>): void {
    if (this.#scopes.get(workspace) === booting) this.#scopes.delete(workspace);
  }

  async restart(): Promise<number> {
    if (this.#closed) throw runtimeError('RUNTIME_CLOSED', { operation: 'runtime.restart', remediation: 'The runtime was closed; open a new one.' });
    const config = userConfig(this.#parts.defaults, this.#parts.env);
    const booted = await Promise.allSettled([...this.#scopes.values()]);
    const workspaces: string[] = [];
    for (const settled of booted) {
      if (settled.status !== 'fulfilled') continue;
      workspaces.push(settled.value.workspace);
      await settled.value.close();
    }
    this.#parts = { ...this.#parts, config };
    this.config = config;
    this.#preloaded = undefined;
    const again = await Promise.allSettled(workspaces.map((workspace) => this.scope(workspace)));
    return again.filter((settled) => settled.status === 'fulfilled').length;
  }

  close(): Promise<void> {
    this.#closed ??= this.#closeAll();
    return this.#closed;
  }

  async #closeAll(): Promise<void> {
    try {
      // Scopes still booting are waited for, then stopped like the others.
      const scopes = await Promise.allSettled([...this.#scopes.values()]);
      for (const settled of scopes) if (settled.status === 'fulfilled') await settled.value.close();
    } finally {
      this.#parts.log.close();
    }
  }
}

/** The user's config.toml over the distribution's defaults. */
export function userConfig(defaults: Config | undefined, env: NodeJS.ProcessEnv = process.env): Config {
  const own = loadConfig(configPath(env));
  return defaults ? mergeConfig(defaults, own) : own;
}

function realWorkspace(workspace: string): string {
  try {
    const real = realpathSync(workspace);
    if (statSync(real).isDirectory()) return real;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
  }
  throw runtimeError('WORKSPACE_NOT_FOUND', {
    operation: 'runtime.scope',
    received_value: workspace,
    expected: 'an existing folder',
    remediation: `${workspace} is not a folder nodwyn can work in; give the path of an existing folder.`,
  });
}
