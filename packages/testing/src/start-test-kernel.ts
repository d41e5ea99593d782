import 'reflect-metadata';
import { Kernel, type Budgets, type RunResult } from '@nodwyn/kernel';
import {
  API_VERSION,
  definePlugin,
  EgressSenderToken,
  TaintToken,
  type ApplyResult,
  type Confirmer,
  type LoopStrategy,
  type ModelProvider,
  type Permission,
  type PluginDefinition,
  type WorkspaceTrust,
} from '@nodwyn/plugin-api';
import { PluginHost, type DistributionEntry } from '@nodwyn/plugin-host';
import type { LogEvent } from '@nodwyn/protocol';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How to start a test kernel. */
export interface TestKernelOptions {
  /** Plugins to load, as definitions (each required) or distribution entries. */
  readonly plugins?: readonly (PluginDefinition | DistributionEntry)[];
  /** Workspace root; a fresh temp dir (real path) by default. */
  readonly workspace?: string;
  /** User settings, as parsed from config.toml. */
  readonly settings?: Record<string, unknown>;
  /** A log file; `:memory:` by default. */
  readonly dbPath?: string;
  /** The log's checkpoint key; random by default. Pass the same key to reopen a `dbPath` as a later process would. */
  readonly key?: Buffer;
  /** nodwyn's data folder, refused to file tools like the CLI's; a fresh temp dir by default (it may lie inside the workspace). */
  readonly dataDir?: string;
  /** nodwyn's config folder, where the person's own `AGENTS.md` lives; the data folder by default. */
  readonly configDir?: string;
  /** Whether the workspace's repository is trusted (`nodwyn trust`); `none` by default. */
  readonly trust?: WorkspaceTrust;
}

/** A running kernel and host for a test, with shortcuts for the common moves. */
export interface TestKernel {
  readonly kernel: Kernel;
  readonly host: PluginHost;
  readonly workspace: string;
  readonly dataDir: string;
  /** A new session in the workspace. */
  session(): string;
  /** One call through the guard, as the model would make it (`confirm: true` grants confirmations). */
  apply(name: string, args: unknown, options?: { session?: string; confirm?: boolean | Confirmer; origin?: 'model' | 'host' }): Promise<ApplyResult>;
  /** One prompt on the turn floor with the given provider and loop strategy (default: the registered `default`). */
  run(prompt: string, options: { provider: ModelProvider; session?: string; loop?: LoopStrategy; confirm?: boolean; budgets?: Partial<Budgets>; signal?: AbortSignal }): Promise<RunResult>;
  events(session: string): LogEvent[];
  stop(): Promise<void>;
}

function toEntry(plugin: PluginDefinition | DistributionEntry): DistributionEntry {
  if ('load' in plugin) return plugin;
  return { package: plugin.manifest.name, range: plugin.manifest.version, load: () => plugin };
}

/**
 * Starts the real kernel and plugin host (SQLite in memory unless told otherwise) with the given plugins,
 * the way `nodwyn` does, for plugin tests. Always `stop()` it.
 */
export async function startTestKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  const temp = mkdtempSync(join(tmpdir(), 'nodwyn-test-'));
  const workspace = options.workspace ?? join(temp, 'workspace');
  if (!options.workspace) mkdirSync(workspace);
  const dataDir = options.dataDir ?? join(temp, 'home');
  mkdirSync(dataDir, { recursive: true });
  const kernel = Kernel.open({
    dbPath: options.dbPath ?? ':memory:',
    key: options.key ?? randomBytes(32),
    workspace: realpathSync(workspace),
    protectedFolders: [{ path: dataDir, name: "nodwyn's data folder" }],
  });
  const settings = options.settings ?? {};
  const host = new PluginHost({ kernel: kernel.port(), apiVersion: API_VERSION, settings, workspace: realpathSync(workspace), dataDir, configDir: options.configDir, trust: options.trust });
  kernel.useSender(() => host.service(EgressSenderToken));
  kernel.useTaint(() => host.service(TaintToken));
  try {
    await host.load({ name: 'test', plugins: (options.plugins ?? []).map(toEntry) });
    await host.start();
  } catch (error) {
    kernel.close();
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  const confirmerOf = (confirm: boolean | Confirmer | undefined): Confirmer | undefined =>
    confirm === true ? { confirm: async () => true } : confirm === false || confirm === undefined ? undefined : confirm;
  return {
    kernel,
    host,
    workspace: realpathSync(workspace),
    dataDir,
    session: () => kernel.sessions.create({ workspace: kernel.workspace }),
    apply: (name, args, o = {}) =>
      kernel.apply({ session: o.session ?? 'test', name, args, origin: o.origin ?? 'model', confirmer: confirmerOf(o.confirm) }),
    run: (prompt, o) => {
      const loop = o.loop ? { item: o.loop, owner: 'test' } : kernel.loops.get('default');
      return kernel.run({
        session: o.session ?? kernel.sessions.create({ workspace: kernel.workspace }),
        prompt,
        provider: o.provider,
        strategy: loop.item,
        strategyOwner: loop.owner,
        budgets: o.budgets,
        signal: o.signal,
        confirmer: confirmerOf(o.confirm),
      });
    },
    events: (session) => kernel.log.read(session),
    async stop() {
      await host.stopAll();
      kernel.close();
      rmSync(temp, { recursive: true, force: true });
    },
  };
}

/** A plugin made on the spot in a test, with the manifest filled in from what it provides. */
export function testPlugin(name: string, provides: string[], register: PluginDefinition['register'], extra: { requires?: string[]; permissions?: Permission[] } = {}): PluginDefinition {
  return definePlugin({ manifest: { name, version: '1.0.0', apiVersion: `^${API_VERSION}`, provides, ...extra }, register });
}
