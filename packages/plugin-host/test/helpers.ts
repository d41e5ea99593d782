import {
  API_VERSION,
  definePlugin,
  EnvelopeError,
  type CliCommand,
  type Dependencies,
  type ContextContributor,
  type GuardStage,
  type LogReader,
  type LoopStrategy,
  type ManifestInput,
  type PluginContext,
  type PluginDefinition,
  type PrimitiveDefinition,
  type PrimitiveInfo,
  type PrimitiveSource,
  type PluginStore,
  type ApplyResult,
  type HostCall,
  type ProviderFactory,
  type ModelCompletion,
  type ModelCompletionResult,
  z,
} from '@nodwyn/plugin-api';
import type { Distribution, DistributionEntry, KernelPort, PluginHostOptions } from '../src/index.js';
import { PluginHost } from '../src/index.js';

/** The host's collaborator in tests: records what it is handed, refuses duplicate primitives like the kernel. */
export class RecordingKernel implements KernelPort {
  /** Every registration as `owner kind:name`, in the order the host applied them. */
  readonly registrations: string[] = [];
  readonly primitives = new Map<string, { owner: string; definition: PrimitiveDefinition<unknown> }>();
  readonly log: LogReader = { read: () => [], signed: () => undefined, sessions: () => [] };

  constructor(builtins: readonly string[] = []) {
    for (const name of builtins) this.primitives.set(name, { owner: 'kernel', definition: primitive(name) });
  }

  registerPrimitive(owner: string, definition: PrimitiveDefinition<unknown>, options: { replace?: boolean }): void {
    if (this.primitives.has(definition.name) && !options.replace) {
      throw new EnvelopeError({ category: 'VALIDATION_FAILED', code: 'KERNEL_PRIMITIVE_DUPLICATE', remediation: 'test kernel: duplicate' });
    }
    this.primitives.set(definition.name, { owner, definition });
    this.registrations.push(`${owner} primitive:${definition.name}`);
  }
  listPrimitives(): readonly PrimitiveInfo[] {
    return [...this.primitives.values()].map(({ owner, definition }) => ({
      name: definition.name,
      description: definition.description,
      tier: definition.tier,
      visibility: definition.visibility,
      kind: definition.kind ?? 'other',
      owner,
      egress: definition.egress === true,
      inputSchema: {},
    }));
  }
  addPrimitiveSource(owner: string, source: PrimitiveSource): void {
    this.registrations.push(`${owner} primitive-source:${source.name}`);
  }
  createSession(owner: string, title: string): string {
    this.registrations.push(`${owner} session:${title}`);
    return `session-${this.registrations.length}`;
  }
  async applyAsHost(owner: string, call: HostCall): Promise<ApplyResult> {
    this.registrations.push(`${owner} apply:${call.name}`);
    return { ok: true, content: '', truncated: false, taint: [] };
  }
  /** Plugin-host tests never reach the store; the kernel's own tests cover it on real SQLite. */
  store(owner: string): PluginStore {
    throw new EnvelopeError({ category: 'INTERNAL', code: 'TEST_KERNEL_NO_STORE', remediation: `test kernel: ${owner} asked for a store` });
  }
  registerProvider(owner: string, factory: ProviderFactory): void {
    this.registrations.push(`${owner} provider:${factory.id}`);
  }
  registerLoop(owner: string, strategy: LoopStrategy): void {
    this.registrations.push(`${owner} loop:${strategy.id}`);
  }
  registerContextContributor(owner: string, contributor: ContextContributor): void {
    this.registrations.push(`${owner} context:${contributor.id}`);
  }
  addStage(owner: string, stage: GuardStage): void {
    this.registrations.push(`${owner} guard-stage:${stage.name}`);
  }
  registerCommand(owner: string, command: CliCommand): void {
    this.registrations.push(`${owner} command:${command.name}`);
  }

  appendEvent(owner: string, session: string, type: string): void {
    this.registrations.push(`${owner} event:${session}:${type}`);
  }

  async completeModel(owner: string, request: ModelCompletion): Promise<ModelCompletionResult> {
    this.registrations.push(`${owner} model:${request.provider}`);
    return { text: '' };
  }
}

/** A model-visible read primitive named `name`. */
export function primitive(name: string): PrimitiveDefinition<unknown> {
  return { name, description: `test primitive ${name}`, input: z.unknown(), tier: 'read', visibility: 'model', handler: () => ({ content: name }) };
}

/** A command named `name`. */
export function command(name: string): CliCommand {
  return { name, description: `test command ${name}`, run: async () => 0 };
}

/** Hooks of a test plugin; `register` defaults to registering every `primitive:` it provides. */
export interface TestHooks {
  /** Declared dependencies; the hooks reach them through `ctx.services`. */
  deps?: Dependencies;
  register?: (ctx: PluginContext) => void | Promise<void>;
  start?: (ctx: PluginContext) => void | Promise<void>;
  stop?: (ctx: PluginContext) => void | Promise<void>;
}

/**
 * A real `definePlugin` plugin named `name` that appends `register:name`, `start:name` and `stop:name`
 * to `events` as its hooks run.
 */
export function testPlugin(name: string, manifest: Partial<ManifestInput>, events: string[], hooks: TestHooks = {}): PluginDefinition {
  const provides = manifest.provides ?? [];
  return definePlugin({
    manifest: { name, version: '1.0.0', apiVersion: `^${API_VERSION}`, ...manifest },
    deps: hooks.deps,
    async register(ctx) {
      events.push(`register:${name}`);
      if (hooks.register) return hooks.register(ctx);
      for (const entry of provides) if (entry.startsWith('primitive:')) ctx.primitives.register(primitive(entry.slice('primitive:'.length)));
    },
    async start(ctx) {
      events.push(`start:${name}`);
      await hooks.start?.(ctx);
    },
    async stop(ctx) {
      events.push(`stop:${name}`);
      await hooks.stop?.(ctx);
    },
  });
}

/** A distribution entry for an in-memory plugin. */
export function entry(plugin: PluginDefinition, options: { optional?: boolean; range?: string; package?: string } = {}): DistributionEntry {
  return { package: options.package ?? plugin.manifest.name, range: options.range ?? '^1.0.0', optional: options.optional, load: () => plugin };
}

/** A distribution of the given entries. */
export function distribution(...plugins: DistributionEntry[]): Distribution {
  return { name: 'test', plugins };
}

/** A host over `kernel` with neutral options; `overrides` replace any of them. */
export function createHost(kernel: KernelPort, overrides: Partial<PluginHostOptions> = {}): PluginHost {
  return new PluginHost({ kernel, apiVersion: API_VERSION, settings: {}, workspace: '/work/space', dataDir: '/data/dir', ...overrides });
}

/** The envelope an `EnvelopeError` rejection carries; fails the test when the promise does not reject with one. */
export async function rejection(promise: Promise<unknown>): Promise<EnvelopeError['envelope']> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof EnvelopeError)) throw new Error(`expected an EnvelopeError rejection, got ${String(error)}`);
  return error.envelope;
}

/** The report row of `name`; fails the test when there is none. */
export function row(host: PluginHost, name: string) {
  const found = host.report().find((report) => report.name === name);
  if (!found) throw new Error(`no report row for ${name}`);
  return found;
}
