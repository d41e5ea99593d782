import {
  EnvelopeError,
  type CliCommand,
  type ContextContributor,
  type GuardStage,
  type LogReader,
  type LoopStrategy,
  type PrimitiveDefinition,
  type PrimitiveInfo,
  type PrimitiveSource,
  type ProtectedFolder,
  type PluginStore,
  type HostCall,
  type ProviderFactory,
  type EgressSender,
  type ModelCompletion,
  type ModelCompletionResult,
  type TaintTracker,
} from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import { KernelCodes } from './errors.js';
import { APPROVAL_EVENTS, Approvals } from './guard/approvals.js';
import { Guard, type ApplyRequest } from './guard/guard.js';
import { StageSet } from './guard/stage-set.js';
import { DEFAULT_STRIKE_LIMIT, STRIKE_EVENT, Strikes } from './guard/strikes.js';
import { EventLog, type AppendDraft } from './log/index.js';
import { PrimitiveTable } from './primitives/primitive-table.js';
import { Registry } from './registry.js';
import { KERNEL_STREAM, SessionStore } from './sessions/session-store.js';
import { completeModel } from './turn/complete-model.js';
import { recoverSession, TURN_EVENTS } from './turn/recover.js';
import { WindowCache } from './sessions/window-cache.js';
import type { WindowBudget } from './sessions/session-window.js';
import { runTurn, type RunOptions, type RunResult } from './turn/turn-runner.js';

/** Which workspace a kernel's tools work in, and its limits; see `KernelOptions` for where the log is. */
export interface KernelScopeOptions {
  /** The workspace root; tools are confined to it. */
  readonly workspace: string;
  /** nodwyn's data and config folders, handed to every call so file tools and sandbox doors refuse them. */
  readonly protectedFolders?: readonly ProtectedFolder[];
  /** Largest tool output kept, in bytes. */
  readonly outputCap?: number;
  /** Strikes (outputs that matched a remembered secret) a session may take; see `Strikes`. Default 3. */
  readonly strikeLimit?: number;
}

/** Where the kernel keeps its data and which workspace its tools work in. */
export interface KernelOptions extends KernelScopeOptions {
  /** SQLite file, or `:memory:`. */
  readonly dbPath: string;
  /** HMAC key file for signed checkpoints (outside the database). */
  readonly keyPath?: string;
  readonly key?: Buffer;
}

/** Where the kernel finds the egress plugin's last hop (the app wires it to the plugin host's services). */
export type SenderLookup = () => EgressSender | undefined;

/** Where the kernel finds the L2 taint tracker (the app wires it to the plugin host's services). */
export type TaintLookup = () => TaintTracker | undefined;

/**
 * The microkernel: the log, the primitive table and the guard, plus the sessions and turn floor built on
 * them. Plugins reach it only through the plugin host's context; apps and tests compose it directly.
 */
export class Kernel {
  readonly log: EventLog;
  readonly primitives: PrimitiveTable;
  readonly stages = new StageSet();
  readonly guard: Guard;
  readonly sessions: SessionStore;
  readonly providers = new Registry<ProviderFactory>('provider', (f) => f.id);
  readonly loops = new Registry<LoopStrategy>('loop strategy', (s) => s.id);
  readonly commands = new Registry<CliCommand>('command', (c) => c.name);
  /** Contributors of the agent's brief, asked in the order of their ids. */
  readonly contexts = new Registry<ContextContributor>('context contributor', (c) => c.id);
  readonly workspace: string;
  #sender: SenderLookup = () => undefined;
  #taint: TaintLookup = () => undefined;
  readonly #strikes: Strikes;
  readonly #approvals: Approvals;
  readonly #windows: WindowCache;
  readonly #ownsLog: boolean;

  private constructor(log: EventLog, options: KernelScopeOptions, ownsLog: boolean) {
    this.#ownsLog = ownsLog;
    this.log = log;
    this.workspace = options.workspace;
    const append = (session: string, draft: AppendDraft): LogEvent => this.append(session, draft);
    this.primitives = new PrimitiveTable(({ name, previousOwner, owner }) =>
      append(KERNEL_STREAM, { type: 'primitive.replaced', actor: 'kernel', payload: { name, previous_owner: previousOwner, owner } }),
    );
    this.sessions = new SessionStore(log, append);
    this.#windows = new WindowCache(log);
    this.#strikes = new Strikes(options.strikeLimit ?? DEFAULT_STRIKE_LIMIT, (session) => this.sessions.lineageOf(session, [STRIKE_EVENT]).length);
    this.#approvals = new Approvals((session) => this.sessions.lineageOf(session, APPROVAL_EVENTS));
    const taint = (): TaintTracker | undefined => this.#taint();
    this.guard = new Guard({
      primitives: this.primitives,
      stages: this.stages,
      append,
      workspace: options.workspace,
      protectedFolders: options.protectedFolders ?? [],
      outputCap: options.outputCap ?? 256 * 1024,
      strikes: this.#strikes,
      approvals: this.#approvals,
      taint,
    });
  }

  /** Opens (or creates) the log and builds a kernel around it. */
  static open(options: KernelOptions): Kernel {
    return new Kernel(EventLog.open({ path: options.dbPath, keyPath: options.keyPath, key: options.key }), options, true);
  }

  /**
   * A kernel for one workspace over a log others share (the daemon: one kernel per workspace, one log).
   * Sessions stay apart because each is its own stream; `close()` leaves the log open for its owner.
   */
  static over(log: EventLog, options: KernelScopeOptions): Kernel {
    return new Kernel(log, options, false);
  }

  /**
   * Appends one event after the log stages (text layers) have filtered it. A stage that throws refuses
   * the write: an unfiltered event never reaches the log.
   */
  append(session: string, draft: AppendDraft): LogEvent {
    const current = this.#filter(session, draft, 'the event was not written');
    const event = this.log.append(session, { type: current.type, actor: current.actor, payload: current.payload });
    if (event.type === STRIKE_EVENT) this.#strikes.recorded(session);
    else this.#approvals.recorded(event);
    this.#windows.push(event);
    return event;
  }

  /**
   * Text for a person's eyes (streamed deltas, a command's output), through the same log stages (the text
   * layers) as an event: nothing is shown that the log would not keep. A stage that throws refuses it.
   */
  shown(session: string, text: string): string {
    const filtered = this.#filter(session, { type: 'display.text', actor: 'kernel', payload: { text } }, 'the text was not shown');
    return String(filtered.payload.text);
  }

  #filter(session: string, draft: AppendDraft, refused: string): AppendDraft & { session: string } {
    let current = { session, ...draft };
    for (const { stage, owner } of this.stages.of('log')) {
      try {
        current = { ...stage.filter(current), session };
      } catch (error) {
        throw new EnvelopeError(
          { category: 'INTERNAL', code: KernelCodes.LOG_FILTER_FAILED, plugin: owner, remediation: `The log stage "${stage.name}" failed; ${refused}.` },
          { cause: error },
        );
      }
    }
    return current;
  }

  /** Applies one call through the guard. */
  apply(request: ApplyRequest) {
    return this.guard.apply(request);
  }

  /** Tells the kernel where the egress last hop is (the plugin host provides it as a service). */
  useSender(lookup: SenderLookup): void {
    this.#sender = lookup;
  }

  /**
   * Tells the kernel where the L2 tracker is (the plugin host provides it as a service). With it, model
   * output and the model's tool results that hold a remembered secret are withheld, and counted as strikes.
   */
  useTaint(lookup: TaintLookup): void {
    this.#taint = lookup;
  }

  /**
   * Closes the session's last turn if the process that ran it stopped mid-way (its own events end in a
   * `turn.started` with no `turn.ended` after it): appends `confirmation.expired` for each question left
   * unanswered, `tool.failed` (`TOOL_INTERRUPTED`) for each model call left without an outcome, then
   * `turn.ended` with reason `interrupted` (`TURN_INTERRUPTED`). Reads only from that turn's start. Returns
   * whether it closed a turn. A run calls it first; a daemon calls it at start for every `openTurns()`.
   */
  recover(session: string): boolean {
    return recoverSession({ log: this.log, append: (s, d) => this.append(s, d) }, session);
  }

  /**
   * The sessions whose last turn is open: running in some process now, or left open by one that stopped.
   * One query over the log. Only a process that knows no other one runs turns on this log (the daemon at
   * start) may `recover` them all.
   */
  openTurns(): string[] {
    return this.log.sessionsEndingIn('turn.started', TURN_EVENTS);
  }

  /** Runs one prompt to its end on the turn floor. */
  run(options: RunOptions): Promise<RunResult> {
    return runTurn(this.#floorDeps(), options);
  }

  /** A plugin's own model call (the judge's), guarded like the loop's; see `PluginContext.models`. */
  complete(request: ModelCompletion): Promise<ModelCompletionResult> {
    return completeModel({ guard: this.guard, providers: this.providers, sender: () => this.#sender() }, request);
  }

  #floorDeps() {
    return {
      recover: (session: string) => this.recover(session),
      sessions: this.sessions,
      windows: (session: string, budget: WindowBudget) => this.#windows.get(session, budget),
      guard: this.guard,
      primitives: this.primitives,
      append: (s: string, d: AppendDraft) => this.append(s, d),
      shown: (s: string, text: string) => this.shown(s, text),
      sender: () => this.#sender(),
      taint: () => this.#taint(),
      strikes: this.#strikes,
      workspace: this.workspace,
      contributors: () => this.contexts.list(),
    };
  }

  /** The read-only log view plugins with `log.read` get. */
  get reader(): LogReader {
    return {
      read: (session, fromSeq) => this.log.read(session, fromSeq),
      signed: (session, seq) => this.log.signed(session, seq),
      sessions: () => this.sessions.list(),
    };
  }

  /** The surface the plugin host hands contributions to. */
  port() {
    return {
      registerPrimitive: (owner: string, definition: PrimitiveDefinition<unknown>, options: { replace?: boolean }) =>
        this.primitives.register(owner, definition, options),
      addPrimitiveSource: (owner: string, source: PrimitiveSource) => this.primitives.addSource(owner, source),
      listPrimitives: (): readonly PrimitiveInfo[] => this.primitives.list(),
      store: (owner: string): PluginStore => this.log.store(owner),
      createSession: (owner: string, title: string) => this.sessions.create({ workspace: this.workspace, title: `${owner}: ${title}` }),
      applyAsHost: (_owner: string, call: HostCall, scope: { readonly forCommand: boolean }) =>
        this.apply({ session: call.session, name: call.name, args: call.args, signal: call.signal, origin: 'host', hostOnly: !scope.forCommand }),
      registerProvider: (owner: string, factory: ProviderFactory) => this.providers.register(owner, factory),
      registerLoop: (owner: string, strategy: LoopStrategy) => this.loops.register(owner, strategy),
      registerContextContributor: (owner: string, contributor: ContextContributor) => this.contexts.register(owner, contributor),
      addStage: (owner: string, stage: GuardStage) => this.stages.add(owner, stage),
      registerCommand: (owner: string, command: CliCommand) => this.commands.register(owner, command),
      appendEvent: (owner: string, session: string, type: string, payload: Readonly<Record<string, unknown>>) => {
        this.append(session, { type, actor: `plugin:${owner}`, payload });
      },
      completeModel: (_owner: string, request: ModelCompletion) => this.complete(request),
      log: this.reader,
    };
  }

  /** Closes the log, when this kernel opened it (`open`); a kernel `over` a shared log leaves it open. */
  close(): void {
    if (this.#ownsLog) this.log.close();
  }
}
