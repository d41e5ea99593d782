import { EnvelopeError, type ApplyResult, type AssistantMessage, TOOL_ARGS_LIMITS, type Confirmer, type ContextContributor, type EgressSender, type Envelope, type PlanOutcome, type RetryBudget, type TurnPlans, type ModelMessage, type ModelProvider, type SummaryOutcome, type SummaryRequest, type ToolCallResult, type ToolProgress, type ToolSpec, type TaintTracker, type TurnFloor, type WindowView, type WorkspaceFiles } from '@nodwyn/plugin-api';
import { retryBudget } from '@nodwyn/plugin-api/transport';
import type { FrontendEvent, LogEvent, ToolCall, TurnEndReason } from '@nodwyn/protocol';
import { KernelCodes } from '../errors.js';
import type { Guard } from '../guard/guard.js';
import { STRIKE_EVENT, strikesEnvelope, withheldEnvelope, type Strikes } from '../guard/strikes.js';
import type { AppendDraft } from '../log/index.js';
import type { PrimitiveTable } from '../primitives/primitive-table.js';
import type { Owned } from '../registry.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { SessionWindow, WindowBudget } from '../sessions/session-window.js';
import type { Budgets } from './budgets.js';
import { callKey, sameCalls } from './call-identity.js';
import { FloorContext } from './floor-context.js';
import { createGuardedFetch } from './guarded-fetch.js';
import { assistantPayload, costOf, streamModel, type StreamedMessage } from './model-call.js';
import { budgetEnvelope, foreignCallEnvelope, repeatEnvelope, stopEnvelope } from './stop-envelopes.js';
import { summarizeSpan } from './summary.js';
import { secretsInOutput, withheldMessage } from './withhold.js';

/** What the floor needs from the kernel. */
export interface FloorDeps {
  readonly sessions: SessionStore;
  /** The session's window for a budget, kept in step with the log (see `WindowCache`). */
  readonly windows: (session: string, budget: WindowBudget) => SessionWindow;
  readonly guard: Guard;
  readonly primitives: PrimitiveTable;
  readonly append: (session: string, draft: AppendDraft) => LogEvent;
  /** The egress plugin's last hop, for the guarded fetch. */
  readonly sender: () => EgressSender | undefined;
  /** Text on its way to a person, through the text layers (the kernel's `shown`); without it, as is. */
  readonly shown?: (session: string, text: string) => string;
  /** The L2 tracker, when a plugin provides one: model output that holds a remembered secret is withheld. */
  readonly taint: () => TaintTracker | undefined;
  readonly strikes: Strikes;
  /** The workspace root, for the brief's contributors. */
  readonly workspace: string;
  /** The registered contributors of the agent's brief, in order. */
  readonly contributors: () => readonly Owned<ContextContributor>[];
}

/** One run's settings. */
export interface FloorOptions {
  readonly session: string;
  readonly provider: ModelProvider;
  /** The model that writes summaries (`[memory] summary_model`); the turn's provider when absent. */
  readonly summaryProvider?: ModelProvider;
  readonly budgets: Budgets;
  readonly signal: AbortSignal;
  readonly confirmer?: Confirmer;
  readonly onEvent?: (event: FrontendEvent) => void;
  /** The workspace's files as the front end serves them; every call of the run gets them. */
  readonly files?: WorkspaceFiles;
}

/** Why the floor stopped the run. */
export interface StopState {
  readonly reason: Exclude<TurnEndReason, 'answer'>;
  readonly envelope: Envelope;
}

/**
 * The turn floor: what a loop strategy cannot skip. Only the model's own tool calls run, each gets exactly
 * one logged result, budgets and the progress guard are enforced here, and cancellation reaches the
 * provider and every running tool through one abort signal.
 */
export class Floor implements TurnFloor {
  readonly session: string;
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #repeats = new Map<string, number>();
  #stop: StopState | undefined;
  #turns = 0;
  #toolCalls = 0;
  #tokens = 0;
  #costUsd = 0;
  #planApproved = false;
  readonly #retries: RetryBudget;
  #pending: { message: AssistantMessage; answered: Set<string>; withheld: boolean } | undefined;
  readonly context: FloorContext;

  constructor(private readonly deps: FloorDeps, private readonly options: FloorOptions) {
    this.session = options.session;
    this.#retries = retryBudget(options.budgets.maxRetries);
    this.context = new FloorContext({
      ...deps,
      session: options.session,
      tools: () => this.tools(),
      signal: () => this.signal,
    });
    const onCancel = (): void => this.halt('cancelled', stopEnvelope('CANCELLED', KernelCodes.TURN_CANCELLED, 'The run was cancelled by the user.'));
    if (options.signal.aborted) onCancel();
    else options.signal.addEventListener('abort', onCancel, { once: true });
    const ms = options.budgets.maxWallMs;
    this.#timer = setTimeout(() => this.halt('budget', budgetEnvelope(KernelCodes.BUDGET_WALL_TIME, `wall time of ${ms} ms`)), ms);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Why the run stopped, if it did. */
  get stopped(): StopState | undefined {
    return this.#stop;
  }

  /** Stops the run; the first reason wins. Running work is aborted. */
  halt(reason: StopState['reason'], env: Envelope): void {
    if (this.#stop) return;
    this.#stop = { reason, envelope: env };
    this.#controller.abort(new EnvelopeError(env));
  }

  async window(): Promise<readonly ModelMessage[]> {
    this.#throwIfStopped();
    return this.#live().messages();
  }

  windowView(): WindowView {
    this.#throwIfStopped();
    return this.#live().view();
  }

  async summarize(request: SummaryRequest): Promise<SummaryOutcome> {
    this.#throwIfStopped();
    const provider = this.options.summaryProvider ?? this.options.provider;
    const fetch = createGuardedFetch({ guard: this.deps.guard, session: this.session, name: 'model.stream', confirmer: this.options.confirmer, sender: this.deps.sender });
    return summarizeSpan({
      session: this.session,
      view: this.#live().view(),
      request,
      model: provider.model ? `${provider.id}/${provider.model}` : provider.id,
      stream: async (messages) => {
        const arrived = await streamModel(provider, { session: this.session, messages, tools: [], fetch, retries: this.#retries }, this.signal, () => undefined);
        this.#tokens += (arrived.usage?.input ?? 0) + (arrived.usage?.output ?? 0);
        this.#throwIfStopped();
        return arrived;
      },
      withhold: (arrived) => this.#withhold(arrived),
      append: (draft) => this.deps.append(this.session, draft),
    });
  }

  // Built from the log's end (or kept from the session's last turn), then extended with every event appended.
  // Asked for each time, not held: the cache may have let it go while the turn ran.
  #live(): SessionWindow {
    const { budgets } = this.options;
    // The brief is sent with every call, so its tokens come out of the window's budget.
    return this.deps.windows(this.session, { windowTokens: budgets.windowTokens - this.context.system().tokens, answerTokens: budgets.answerTokens });
  }

  tools(): readonly ToolSpec[] {
    return this.deps.primitives
      .list()
      .filter((p) => p.visibility === 'model')
      .map((p) => ({ name: p.name, description: p.description, inputSchema: p.inputSchema }));
  }

  async callModel(): Promise<AssistantMessage> {
    this.#throwIfStopped();
    this.closeUnanswered(KernelCodes.LOOP_SKIPPED_CALL);
    const { budgets, provider } = this.options;
    if (this.#turns >= budgets.maxTurns) this.#stopNow('budget', budgetEnvelope(KernelCodes.BUDGET_TURNS, `${budgets.maxTurns} model calls`));
    this.#checkStrikes();
    this.#turns++;
    const messages = await this.window();
    const fetch = createGuardedFetch({ guard: this.deps.guard, session: this.session, name: 'model.stream', confirmer: this.options.confirmer, sender: this.deps.sender });
    const system = this.context.system().text;
    const request = { session: this.session, ...(system === undefined ? {} : { system }), messages, tools: this.tools(), fetch, retries: this.#retries };
    const shown = this.deps.shown;
    const arrived = await streamModel(provider, request, this.signal, this.options.onEvent ?? (() => undefined), {
      shown: shown && ((text) => shown(this.session, text)),
      argsLimits: { maxDepth: TOOL_ARGS_LIMITS.maxDepth, maxBytes: Math.min(budgets.maxToolArgsBytes, TOOL_ARGS_LIMITS.maxBytes) },
    });
    const streamed = this.#withhold(arrived);
    const withheld = streamed !== arrived;
    if (streamed.complete || streamed.text.length > 0) {
      this.deps.append(this.session, { type: 'message.assistant', actor: 'model', payload: assistantPayload(streamed, provider) });
    }
    if (streamed.error) {
      this.#throwIfStopped();
      throw streamed.error;
    }
    this.#tokens += (streamed.usage?.input ?? 0) + (streamed.usage?.output ?? 0);
    if (this.#tokens > budgets.maxTokens) this.halt('budget', budgetEnvelope(KernelCodes.BUDGET_TOKENS, `${budgets.maxTokens} tokens`));
    this.#costUsd += costOf(streamed, provider) ?? 0;
    if (this.#costUsd > budgets.maxCostUsd) this.halt('budget', budgetEnvelope(KernelCodes.BUDGET_COST, `$${budgets.maxCostUsd} of model cost`));
    const message: AssistantMessage = { text: streamed.text, toolCalls: streamed.toolCalls, stopReason: streamed.stopReason, usage: streamed.usage };
    this.#pending = { message, answered: new Set(), withheld };
    if (withheld) this.#checkStrikes();
    return message;
  }

  async runToolCalls(message: AssistantMessage): Promise<readonly ToolCallResult[]> {
    const pending = this.#pending;
    if (!pending || !sameCalls(pending.message.toolCalls, message.toolCalls) || pending.answered.size > 0) {
      throw new EnvelopeError(foreignCallEnvelope('Only the tool calls of the latest assistant message run, and each only once. This is a bug in the loop strategy.'));
    }
    const results: ToolCallResult[] = [];
    for (const call of pending.message.toolCalls) {
      results.push(pending.withheld ? this.#deny(call, 'security', withheldEnvelope(call.name)) : await this.#runOne(call));
      pending.answered.add(call.id);
      if (this.deps.strikes.exhausted(this.session)) this.halt('budget', strikesEnvelope(this.deps.strikes.limit));
    }
    this.#throwIfStopped();
    return results;
  }

  async callPrimitive(name: string, args: unknown): Promise<ApplyResult> {
    this.#throwIfStopped();
    if (this.deps.primitives.get(name)?.visibility === 'model') {
      throw new EnvelopeError(foreignCallEnvelope(`${name} is a model tool; only the model's own tool calls run it. A loop strategy may call host primitives only.`));
    }
    return this.deps.guard.apply({
      session: this.session,
      name,
      args,
      origin: 'host',
      signal: this.signal,
      confirmer: this.options.confirmer,
      planApproved: this.#planApproved,
      files: this.options.files,
    });
  }

  readonly plans: TurnPlans = {
    approved: () => this.#planApproved,
    request: (reason: string) => {
      this.#throwIfStopped();
      this.deps.append(this.session, { type: 'plan.requested', actor: 'kernel', payload: { reason } });
    },
    record: (outcome: PlanOutcome) => {
      this.#throwIfStopped();
      const { plan, by, round, score, feedback } = outcome;
      const scored = score === undefined ? {} : { score };
      if (outcome.approved) {
        this.deps.append(this.session, { type: 'plan.approved', actor: 'kernel', payload: { plan, by, round, ...scored } });
        this.#planApproved = true;
      } else {
        this.deps.append(this.session, { type: 'plan.revise', actor: 'kernel', payload: { plan, by, round, ...scored, ...(feedback ? { feedback } : {}) } });
      }
    },
    confirm: async (plan: string) => {
      this.#throwIfStopped();
      const { confirmer } = this.options;
      if (!confirmer) return false;
      try {
        const answer = await confirmer.confirm({
          session: this.session,
          callId: 'plan',
          name: 'plan',
          tier: 'irreversible',
          reason: `approve this plan before it runs:\n${plan}`,
          args: { plan },
          effect: 'plan',
          signal: this.signal,
        });
        return typeof answer === 'boolean' ? answer : answer?.granted === true;
      } catch {
        return false;
      }
    },
  };

  /** Gives every call of the latest message that has no result one, so no call is left unanswered. */
  closeUnanswered(code: string): void {
    const pending = this.#pending;
    if (!pending) return;
    for (const call of pending.message.toolCalls) {
      if (pending.answered.has(call.id)) continue;
      const env = this.#stop?.envelope ?? stopEnvelope('PRECONDITION_FAILED', code, 'The loop strategy moved on without running this call.');
      this.#deny(call, 'turn', env);
      pending.answered.add(call.id);
    }
  }

  /** Releases the wall-time timer. */
  dispose(): void {
    clearTimeout(this.#timer);
  }

  async #runOne(call: ToolCall): Promise<ToolCallResult> {
    if (this.#stop) return this.#deny(call, 'turn', this.#stop.envelope);
    const key = callKey(call);
    const seen = (this.#repeats.get(key) ?? 0) + 1;
    this.#repeats.set(key, seen);
    const { budgets } = this.options;
    if (seen >= budgets.maxRepeats) {
      this.halt('progress', repeatEnvelope(call, seen));
      return this.#deny(call, 'progress', this.#stop!.envelope);
    }
    if (this.#toolCalls >= budgets.maxToolCalls) {
      this.halt('budget', budgetEnvelope(KernelCodes.BUDGET_TOOL_CALLS, `${budgets.maxToolCalls} tool calls`));
      return this.#deny(call, 'budget', this.#stop!.envelope);
    }
    this.#toolCalls++;
    const { onEvent } = this.options;
    onEvent?.({ type: 'tool.started', session: this.session, call_id: call.id, name: call.name });
    const result = await this.deps.guard.apply({
      session: this.session,
      name: call.name,
      args: call.args,
      origin: 'model',
      callId: call.id,
      signal: this.signal,
      confirmer: this.options.confirmer,
      planApproved: this.#planApproved,
      files: this.options.files,
      ...(onEvent ? { onProgress: (update: ToolProgress) => onEvent(this.#progressEvent(call, update)) } : {}),
    });
    if (result.ok) return { call, ok: true, content: result.content };
    return { call, ok: false, content: JSON.stringify(result.envelope), envelope: result.envelope };
  }

  /** A tool's report of how far it has got, for front ends: its message goes through the text layers first. */
  #progressEvent(call: ToolCall, update: ToolProgress): FrontendEvent {
    const layered = update.message === undefined ? undefined : (this.deps.shown?.(this.session, update.message) ?? update.message);
    // Only a person sees it, but a message still holding a remembered secret is left out all the same.
    const message = layered !== undefined && (this.deps.taint()?.matches(this.session, layered).length ?? 0) === 0 ? layered : undefined;
    return {
      type: 'tool.progress',
      session: this.session,
      call_id: call.id,
      progress: update.progress,
      ...(update.total === undefined ? {} : { total: update.total }),
      ...(message === undefined ? {} : { message }),
    };
  }

  #deny(call: ToolCall, stage: string, env: Envelope): ToolCallResult {
    this.deps.append(this.session, { type: 'tool.denied', actor: 'kernel', payload: { call_id: call.id, name: call.name, stage, envelope: env } });
    return { call, ok: false, content: JSON.stringify(env), envelope: env };
  }

  /**
   * Model output that holds a remembered secret is logged as a strike and replaced as a whole (see
   * `withheldMessage`), before anything of it reaches the log, and so the window.
   */
  #withhold(streamed: StreamedMessage): StreamedMessage {
    const classes = secretsInOutput(this.deps.taint(), this.session, streamed);
    if (classes.length === 0) return streamed;
    this.deps.append(this.session, { type: STRIKE_EVENT, actor: 'kernel', payload: { source: 'model', classes: [...classes] } });
    return withheldMessage(streamed, (name) => this.deps.primitives.get(name)?.visibility === 'model');
  }

  #checkStrikes(): void {
    const { strikes } = this.deps;
    if (strikes.exhausted(this.session)) this.#stopNow('budget', strikesEnvelope(strikes.limit));
  }

  #stopNow(reason: StopState['reason'], env: Envelope): never {
    this.halt(reason, env);
    throw new EnvelopeError(env);
  }

  #throwIfStopped(): void {
    if (this.#stop) throw new EnvelopeError(this.#stop.envelope);
  }
}
