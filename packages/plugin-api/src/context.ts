import type { LogEvent, Usage } from '@nodwyn/protocol';
import type { AgentCommand } from './agent-command.js';
import type { CliCommand } from './command.js';
import type { ContextContributor, WorkspaceTrust } from './context-contributor.js';
import type { Frontend } from './frontend.js';
import type { GuardStage } from './guard.js';
import type { LoopStrategy } from './loop.js';
import type { ApplyResult, PrimitiveDefinition, PrimitiveInfo, PrimitiveSource } from './primitive.js';
import type { PluginStore } from './store.js';
import type { ModelMessage, ProviderFactory, ProviderOptions } from './provider.js';
import type { Token } from './tokens.js';

/** A session as listed. */
export interface SessionInfo {
  readonly id: string;
  readonly created: string;
  readonly updated: string;
  readonly events: number;
  readonly workspace: string;
  readonly title?: string;
  readonly forkedFrom?: { readonly session: string; readonly seq: number };
}

/** Read-only view of the log (needs the `log.read` permission). */
export interface LogReader {
  read(session: string, fromSeq?: number): readonly LogEvent[];
  /**
   * The event at `seq`, only if the log proves it is as nodwyn wrote it: its hash chains to a checkpoint
   * signed with the log key, which a database edit cannot forge. `undefined` when it cannot. For a plugin
   * that must trust what an old event says (the capability registry checks each version's admission).
   */
  signed(session: string, seq: number): LogEvent | undefined;
  sessions(): readonly SessionInfo[];
}

/** A model call a plugin makes for itself (the judge), outside the loop's turn. */
export interface ModelCompletion {
  readonly session: string;
  /** A registered provider id (`anthropic`, `openai`, `scripted`, …) and its options (`model`, `base_url`, …). */
  readonly provider: string;
  readonly options: ProviderOptions;
  readonly messages: readonly ModelMessage[];
  readonly signal: AbortSignal;
}

/** What a plugin's model call answered: its text only (tool calls are not offered). */
export interface ModelCompletionResult {
  readonly text: string;
  readonly usage?: Usage;
  readonly costUsd?: number;
}

/** A call a plugin makes as the host, for a person's command (`nodwyn capability test`). */
export interface HostCall {
  readonly session: string;
  readonly name: string;
  readonly args: unknown;
  readonly signal?: AbortSignal;
}

/**
 * Everything a plugin receives. It never sees the container or kernel internals: it contributes through
 * these registries, and each contribution is checked against its manifest's `provides`.
 */
export interface PluginContext {
  readonly plugin: { readonly name: string; readonly version: string };
  /** This plugin's section of the configuration (`[plugins."<name>"]`). */
  readonly config: Readonly<Record<string, unknown>>;
  /** The whole user configuration, read-only. */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly workspace: string;
  /**
   * Whether the person trusted the workspace's repository (`nodwyn trust`). What a repository ships
   * (its `.nodwyn/` config, its context files such as `AGENTS.md`) applies only when `trusted`.
   */
  readonly trust: WorkspaceTrust;
  readonly dataDir: string;
  /** nodwyn's config folder (`$NODWYN_HOME`, else the XDG config dir): the person's own files, such as `AGENTS.md`. */
  readonly configDir: string;
  readonly log: LogReader;
  readonly primitives: {
    register<I>(definition: PrimitiveDefinition<I>, options?: { replace?: boolean }): void;
    /** Adds a source of primitives that come and go while nodwyn runs (see `PrimitiveSource`). */
    addSource(source: PrimitiveSource): void;
    list(): readonly PrimitiveInfo[];
  };
  readonly providers: { register(factory: ProviderFactory): void };
  /**
   * Model calls of the plugin's own, through the kernel's guarded fetch and retry budget like the loop's.
   * Nothing is logged for them: the caller logs what it decided (the judge's `judge.scored`).
   */
  readonly models: { complete(request: ModelCompletion): Promise<ModelCompletionResult> };
  readonly loops: { register(strategy: LoopStrategy): void };
  readonly guard: { addStage(stage: GuardStage): void };
  readonly commands: { register(command: CliCommand): void };
  /** Front ends (`frontend:<id>` in `provides`); the plugin host keeps them for the app to start. */
  readonly frontends: { register(frontend: Frontend): void };
  /**
   * Slash commands the agent answers itself (`agent-command:<name>` in `provides`); the plugin host keeps
   * them and the server offers them to every front end (see `AgentCommand`).
   */
  readonly agentCommands: { register(command: AgentCommand): void };
  /**
   * Parts of the agent's brief, its system prompt (`context:<id>` in `provides`; see `ContextContributor`).
   * The loop strategy asks every contributor once a turn and logs what it keeps as `context.added`.
   */
  readonly context: { register(contributor: ContextContributor): void };
  /** Appends events of this plugin to a session (actor `plugin:<name>`), through the log stages. */
  readonly events: { append(session: string, type: string, payload: Readonly<Record<string, unknown>>): void };
  /**
   * Calls through the guard on a person's behalf (origin `host`, no confirmer: a call that needs a
   * confirmation is denied), logged in a session of its own that `session(title)` opens. Outside the
   * plugin's own command (`commands.register`) a person runs, only host primitives are reachable, nested
   * calls included: a model tool is denied with `HOST_CALL_MODEL_TOOL`, because it runs only as the
   * model's own call on the turn floor, inside the turn's budgets.
   */
  readonly calls: {
    session(title: string): string;
    apply(call: HostCall): Promise<ApplyResult>;
  };
  /** This plugin's transactional store in the kernel's database. */
  readonly store: PluginStore;
  readonly services: {
    provide<T>(token: Token<T>, value: T): void;
    get<T>(token: Token<T>): T;
  };
}
