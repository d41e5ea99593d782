import 'reflect-metadata';
import { container as globalContainer, type DependencyContainer } from 'tsyringe';
import { EnvelopeError, envelope, type Envelope, type Frontend, type Token, type WorkspaceTrust } from '@nodwyn/plugin-api';
import { AgentCommandRegistry, type AgentCommandEntry } from './agent-command-registry.js';
import type { ProvidedService } from './contributions.js';
import { assertDistributionValid, type Distribution } from './distribution.js';
import { hostEnvelopeInit, pluginEnvelope, PLUGIN_HOST_PACKAGE } from './errors.js';
import { freezeSettings } from './freeze-settings.js';
import { FrontendRegistry, type FrontendInfo } from './frontend-registry.js';
import type { KernelPort } from './kernel-port.js';
import { optionalAfter, resolveDependencies } from './dependencies.js';
import { planLoadOrder, type LoadPlan } from './load-order.js';
import { dependencyFailed, requirementMissing, requiresCycle } from './plan-envelopes.js';
import { runHook } from './plugin-hooks.js';
import { loadRecords } from './plugin-loader.js';
import type { PluginRecord } from './plugin-record.js';
import type { PluginReport } from './plugin-report.js';
import { declaredServices } from './plugin-context-factory.js';
import { createPluginScope, type PluginScope } from './plugin-scope.js';
import { checkProvides } from './provides-check.js';
import { KernelPortToken, SettingsToken } from './tokens.js';

/** How long a plugin's register, start or stop may take before it fails, unless the host is told otherwise. */
export const DEFAULT_PLUGIN_TIMEOUT_MS = 10_000;

/** What a host is built from. */
export interface PluginHostOptions {
  readonly kernel: KernelPort;
  /** The plugin API version this host implements (normally plugin-api's `API_VERSION`). */
  readonly apiVersion: string;
  /** The whole user configuration; plugins get a deep-frozen copy, and `plugins["<name>"]` as their config. */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly workspace: string;
  /** Whether the person trusted the workspace's repository; `none` when not given. */
  readonly trust?: WorkspaceTrust;
  readonly dataDir: string;
  /** nodwyn's config folder; the data folder when not given. */
  readonly configDir?: string;
  /** Optional plugins turned off by configuration; naming a required one fails the load. */
  readonly disabled?: readonly string[];
  /** Limit for each plugin's register, start and stop, in milliseconds. */
  readonly timeoutMs?: number;
}

type HostPhase = 'new' | 'busy' | 'loaded' | 'started' | 'stopped';

/**
 * Loads the plugins a distribution names and runs their lifecycle: checks each manifest before any
 * plugin hook runs, orders plugins by `requires`, gives each a child container and a `PluginContext`,
 * runs `register` (all) → `start` (all) → `stop` (reverse), and keeps going when an optional plugin
 * fails. A host is single-use: `load`, then `start`, then `stopAll`.
 *
 * Contributions are buffered per plugin and reach the kernel only after that plugin's `register`
 * returned and its `provides` check passed, so a plugin failing in `register` leaves nothing behind.
 * A plugin that fails later (in `start`) keeps its contributions: the KernelPort cannot take them back.
 */
export class PluginHost {
  readonly #options: PluginHostOptions;
  readonly #settings: Readonly<Record<string, unknown>>;
  readonly #root: DependencyContainer;
  /** Applied `kind:name` → owning plugin, so two plugins cannot claim the same contribution. */
  readonly #owners = new Map<string, string>();
  readonly #frontends = new FrontendRegistry();
  readonly #agentCommands = new AgentCommandRegistry();
  #records: PluginRecord[] = [];
  #order: PluginRecord[] = [];
  #plan: LoadPlan | undefined;
  #started: PluginRecord[] = [];
  #phase: HostPhase = 'new';

  constructor(options: PluginHostOptions) {
    this.#options = options;
    this.#settings = freezeSettings(options.settings);
    // A child of the global container, so hosts (and tests) never share registrations.
    this.#root = globalContainer.createChildContainer();
    this.#root.register(KernelPortToken, { useValue: options.kernel });
    this.#root.register(SettingsToken, { useValue: this.#settings });
  }

  /**
   * Loads, checks, orders and registers every plugin of `distribution`. Rejects with the envelope of
   * the first required plugin that fails (after unloading everything); optional failures are reported.
   */
  async load(distribution: Distribution): Promise<void> {
    this.#enter('new', 'load');
    try {
      assertDistributionValid(distribution);
      this.#records = await loadRecords(distribution, { apiVersion: this.#options.apiVersion, disabled: this.#options.disabled ?? [] });
      this.#order = this.#planOrder();
      // The host checks before it runs: a required plugin refused at load time stops everything before any register().
      const refused = this.#records.find((record) => record.state === 'failed' && !record.optional);
      if (refused?.envelope) throw new EnvelopeError(refused.envelope);
      for (const record of this.#order) await this.#register(record);
      this.#phase = 'loaded';
    } catch (error) {
      await this.#teardown();
      throw error;
    }
  }

  /** Starts every registered plugin in load order. A required failure stops what started, then rejects. */
  async start(): Promise<void> {
    this.#enter('loaded', 'start');
    try {
      for (const record of this.#order) await this.#start(record);
      this.#phase = 'started';
    } catch (error) {
      await this.#teardown();
      throw error;
    }
  }

  /**
   * Stops started plugins in reverse order and disposes every plugin's container. Never throws: the
   * envelopes of stop failures are returned (and shown in `report()`). Later calls do nothing; a call
   * while `load` or `start` is still running returns a `PLUGIN_HOST_PHASE` envelope and does nothing.
   */
  async stopAll(): Promise<readonly Envelope[]> {
    if (this.#phase === 'stopped') return [];
    if (this.#phase === 'busy') return [this.#phaseEnvelope('stopAll', 'not busy')];
    return this.#teardown();
  }

  /**
   * A service some plugin provided, for the app that composes the kernel (the egress sender); undefined
   * when none did or the host is stopped. Plugins get services through their context, never here.
   */
  service<T>(token: Token<T>): T | undefined {
    if (this.#phase === 'stopped' || !this.#root.isRegistered(token.key, true)) return undefined;
    return this.#root.resolve<ProvidedService>(token.key).value as T;
  }

  /**
   * The front ends of started plugins, in registration order. A front end whose plugin failed in
   * `start`, or was stopped, is not offered: it would run on a plugin that is not there.
   */
  frontends(): readonly FrontendInfo[] {
    return this.#liveFrontends().map(({ frontend, owner }) => ({ id: frontend.id, description: frontend.description, owner }));
  }

  /** The front end registered as `id` by a started plugin, for the app to start; undefined otherwise. */
  frontend(id: string): Frontend | undefined {
    return this.#liveFrontends().find(({ frontend }) => frontend.id === id)?.frontend;
  }

  #liveFrontends(): readonly { readonly frontend: Frontend; readonly owner: string }[] {
    return this.#frontends.entries().filter(({ owner }) => this.#isStarted(owner));
  }

  /**
   * The agent commands (slash commands the agent answers itself) of started plugins, with their owners,
   * in registration order; the protocol server offers and runs them. Like front ends, a command of a
   * plugin that failed in `start`, or was stopped, is not offered.
   */
  agentCommands(): readonly AgentCommandEntry[] {
    return this.#agentCommands.entries().filter(({ owner }) => this.#isStarted(owner));
  }

  #isStarted(plugin: string): boolean {
    return this.#records.some((record) => record.name === plugin && record.state === 'started');
  }

  /** One row per distribution entry, in distribution order, for `nodwyn plugins`. */
  report(): readonly PluginReport[] {
    return this.#records.map((record) => ({
      name: record.name,
      version: record.manifest?.version,
      apiVersion: record.manifest?.apiVersion,
      state: record.state,
      optional: record.optional,
      provides: record.manifest?.provides ?? [],
      ...(record.envelope ? { envelope: record.envelope } : {}),
    }));
  }

  #planOrder(): PluginRecord[] {
    const known = this.#records.filter((record) => record.manifest !== undefined);
    const available = new Set(this.#options.kernel.listPrimitives().map((info) => `primitive:${info.name}`));
    const plan = planLoadOrder(
      known.map((record) => ({
        name: record.name,
        requires: record.manifest?.requires ?? [],
        provides: record.manifest?.provides ?? [],
        after: optionalAfter(record.dependencies ?? []),
      })),
      available,
    );
    this.#plan = plan;
    const order = plan.order.map((name) => this.#record(name));
    const unknown = this.#records.filter((record) => record.manifest === undefined).map((record) => record.name);
    for (const record of order) {
      if (record.state !== 'loaded' || !record.manifest) continue;
      const missing = plan.missing.get(record.name);
      const cycle = plan.cycles.get(record.name);
      const failure = missing
        ? requirementMissing(record.manifest, missing, unknown)
        : cycle
          ? requiresCycle(record.manifest, cycle)
          : this.#blocked(record, 'plugin.load');
      if (failure) this.#markFailed(record, failure);
    }
    return order;
  }

  async #register(record: PluginRecord): Promise<void> {
    if (record.state !== 'loaded' || !record.manifest || !record.definition) return;
    const blocked = this.#blocked(record, 'plugin.register');
    if (blocked) return this.#fail(record, blocked);
    const scope = createPluginScope({
      root: this.#root,
      owners: this.#owners,
      kept: { frontends: this.#frontends, agentCommands: this.#agentCommands },
      manifest: record.manifest,
      declaredServices: declaredServices(record.manifest, record.dependencies ?? []),
      kernel: this.#options.kernel,
      settings: this.#settings,
      workspace: this.#options.workspace,
      trust: this.#options.trust ?? 'none',
      dataDir: this.#options.dataDir,
      configDir: this.#options.configDir ?? this.#options.dataDir,
    });
    record.scope = scope;
    const failure = this.#resolveDependencies(record, scope) ?? (await runHook(record.definition, 'register', scope.context, record.deps ?? {}, this.#timeoutMs));
    // Closed before anything else, so a register() still running after its timeout cannot add more.
    scope.contributions.close();
    const refusal = failure ?? checkProvides(record.manifest, scope.contributions.keys()) ?? this.#apply(record, scope);
    if (refusal) return this.#fail(record, refusal);
    record.state = 'registered';
  }

  /** Resolves the plugin's `deps` once, for all its hooks; the envelope when a required one is not there. */
  #resolveDependencies(record: PluginRecord, scope: PluginScope): Envelope | undefined {
    try {
      record.deps = resolveDependencies(scope.context.services, record.dependencies ?? []);
      return undefined;
    } catch (error) {
      return pluginEnvelope(error, record.name, 'plugin.register', 'PLUGIN_REGISTER_FAILED');
    }
  }

  #apply(record: PluginRecord, scope: PluginScope): Envelope | undefined {
    try {
      scope.contributions.apply(this.#root);
      return undefined;
    } catch (error) {
      return pluginEnvelope(error, record.name, 'plugin.register', 'PLUGIN_REGISTER_FAILED');
    }
  }

  async #start(record: PluginRecord): Promise<void> {
    if (record.state !== 'registered' || !record.definition || !record.scope) return;
    const failure = this.#blocked(record, 'plugin.start') ?? (await runHook(record.definition, 'start', record.scope.context, record.deps ?? {}, this.#timeoutMs));
    if (failure) return this.#fail(record, failure);
    record.state = 'started';
    this.#started.push(record);
  }

  /** The envelope that skips `record` because every provider of one of its requirements failed. */
  #blocked(record: PluginRecord, operation: string): Envelope | undefined {
    if (!record.manifest) return undefined;
    for (const { requirement, providers } of this.#plan?.requirements.get(record.name) ?? []) {
      const dependencies = providers.map((name) => this.#record(name));
      if (dependencies.every((dependency) => dependency.state === 'failed')) {
        const failed = dependencies.map((dependency) => ({ name: dependency.name, code: dependency.envelope?.code ?? null }));
        return dependencyFailed(record.manifest, requirement, failed, operation);
      }
    }
    return undefined;
  }

  /** Marks a plugin failed and unloads it; rejects with its envelope when the plugin is required. */
  async #fail(record: PluginRecord, failure: Envelope): Promise<void> {
    this.#markFailed(record, failure);
    await record.scope?.dispose();
    if (!record.optional) throw new EnvelopeError(failure);
  }

  #markFailed(record: PluginRecord, failure: Envelope): void {
    record.state = 'failed';
    record.envelope = failure;
  }

  async #teardown(): Promise<readonly Envelope[]> {
    const failures: Envelope[] = [];
    for (const record of [...this.#started].reverse()) {
      const failure = record.definition && record.scope ? await runHook(record.definition, 'stop', record.scope.context, record.deps ?? {}, this.#timeoutMs) : undefined;
      if (failure) {
        failures.push(failure);
        this.#markFailed(record, failure);
      } else record.state = 'stopped';
    }
    this.#started = [];
    for (const record of this.#records) {
      if (record.state === 'registered') record.state = 'stopped';
      await record.scope?.dispose();
    }
    this.#phase = 'stopped';
    return failures;
  }

  #record(name: string): PluginRecord {
    const record = this.#records.find((candidate) => candidate.name === name);
    if (!record) throw new Error(`plugin-host: no record for planned plugin ${name}`);
    return record;
  }

  get #timeoutMs(): number {
    return this.#options.timeoutMs ?? DEFAULT_PLUGIN_TIMEOUT_MS;
  }

  #enter(expected: HostPhase, operation: string): void {
    if (this.#phase !== expected) throw new EnvelopeError(this.#phaseEnvelope(operation, expected));
    this.#phase = 'busy';
  }

  #phaseEnvelope(operation: string, expected: string): Envelope {
    return envelope(
      hostEnvelopeInit('PLUGIN_HOST_PHASE', {
        plugin: PLUGIN_HOST_PACKAGE,
        operation: `plugin-host.${operation}`,
        received_value: this.#phase,
        expected,
        remediation: `${operation}() was called while the host was ${this.#phase}; call load() once, then start(), then stopAll(), each after the previous one settled.`,
      }),
    );
  }
}
