import type {
  CliCommand,
  ContextContributor,
  GuardStage,
  LogReader,
  LoopStrategy,
  ModelCompletion,
  ModelCompletionResult,
  PrimitiveDefinition,
  ApplyResult,
  HostCall,
  PrimitiveInfo,
  PrimitiveSource,
  PluginStore,
  ProviderFactory,
} from '@nodwyn/plugin-api';

/**
 * What the host needs from the kernel; the app wires the real kernel to it. It lives here, not in the
 * kernel, because plugin-host must not depend on `@nodwyn/kernel`.
 */
export interface KernelPort {
  /** Adds a primitive owned by `owner`. Throws an `EnvelopeError` on a bad or duplicate name. */
  registerPrimitive(owner: string, definition: PrimitiveDefinition<unknown>, options: { replace?: boolean }): void;
  /** Adds a source of primitives that change while nodwyn runs, owned by `owner`. */
  addPrimitiveSource(owner: string, source: PrimitiveSource): void;
  /** Opens a session in the workspace for `owner`'s host calls. */
  createSession(owner: string, title: string): string;
  /**
   * One call through the guard with origin `host` and no confirmer. Outside a person's command
   * (`forCommand` false) it may reach host primitives only, nested calls included.
   */
  applyAsHost(owner: string, call: HostCall, scope: { readonly forCommand: boolean }): Promise<ApplyResult>;
  /** `owner`'s own transactional store in the kernel's database. */
  store(owner: string): PluginStore;
  /** Every primitive in the table, built-ins included. */
  listPrimitives(): readonly PrimitiveInfo[];
  /** Adds a model provider factory owned by `owner`. */
  registerProvider(owner: string, factory: ProviderFactory): void;
  /** Adds a loop strategy owned by `owner`. */
  registerLoop(owner: string, strategy: LoopStrategy): void;
  /** Adds a contributor of parts of the agent's brief, owned by `owner`. */
  registerContextContributor(owner: string, contributor: ContextContributor): void;
  /** Adds a guard stage at its slot, owned by `owner`. */
  addStage(owner: string, stage: GuardStage): void;
  /** Adds a `nodwyn <name>` subcommand owned by `owner`. */
  registerCommand(owner: string, command: CliCommand): void;
  /** Appends a plugin's event to a session (actor `plugin:<owner>`), through the kernel's log stages. */
  appendEvent(owner: string, session: string, type: string, payload: Readonly<Record<string, unknown>>): void;
  /** A plugin's own model call through the kernel's guarded fetch (`PluginContext.models.complete`). */
  completeModel(owner: string, request: ModelCompletion): Promise<ModelCompletionResult>;
  /** Read-only view of the log, handed to plugins that declare `log.read`. */
  readonly log: LogReader;
}
