import type { Envelope, ToolCall, Usage } from '@nodwyn/protocol';
import type { TurnContext } from './context-contributor.js';
import type { ApplyResult } from './primitive.js';
import type { ModelMessage, ToolSpec } from './provider.js';

/** A finished assistant message, as logged. */
export interface AssistantMessage {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly stopReason: string;
  readonly usage?: Usage;
}

/** The result of one tool call, as the model will see it. */
export interface ToolCallResult {
  readonly call: ToolCall;
  readonly ok: boolean;
  /** What the model sees: the tool's text, or the envelope as JSON. */
  readonly content: string;
  readonly envelope?: Envelope;
}

/**
 * What the kernel guarantees a loop strategy (the turn floor). Every method enforces the budgets, the
 * progress guard and cancellation; once the turn must stop, every method throws an `EnvelopeError` that
 * the strategy should let propagate.
 */
export interface TurnFloor {
  readonly session: string;
  readonly signal: AbortSignal;
  /** The window for the next model call, rebuilt from the log. */
  window(): Promise<readonly ModelMessage[]>;
  /** The model-visible tools. */
  tools(): readonly ToolSpec[];
  /** Calls the model on the current window; the answer is logged before it is returned. */
  callModel(): Promise<AssistantMessage>;
  /** Runs the tool calls of the latest assistant message through the guard: exactly one result per call. */
  runToolCalls(message: AssistantMessage): Promise<readonly ToolCallResult[]>;
  /**
   * Calls a host primitive (`area.verb`, e.g. `judge.score`) through the guard. Model-visible tools are
   * refused here: only the model's own calls run them.
   */
  callPrimitive(name: string, args: unknown): Promise<ApplyResult>;
  readonly plans: TurnPlans;
  /** The agent's brief: what the contributors offer, what the session logged, and adding parts to it. */
  readonly context: TurnContext;
}

/** A judged or confirmed plan draft. */
export interface PlanOutcome {
  readonly plan: string;
  readonly approved: boolean;
  readonly by: 'judge' | 'person';
  /** 1 for the first draft. */
  readonly round: number;
  readonly score?: number;
  /** What to revise; the window shows it to the model. */
  readonly feedback?: string;
}

/**
 * Plans (docs/architecture.md §6). An irreversible primitive is denied with `PLAN_REQUIRED` until a plan was
 * approved in the turn, judge or no judge; the strategy asks for one, has it judged (or confirmed by the
 * person) and records the outcome.
 */
export interface TurnPlans {
  /** True once a plan was approved in this turn. */
  approved(): boolean;
  /** Appends `plan.requested`; the window shows it to the model as an instruction to reply with a plan. */
  request(reason: string): void;
  /** Appends `plan.approved` or `plan.revise` (whose feedback the window shows the model). */
  record(outcome: PlanOutcome): void;
  /** Asks the person to approve a plan, when no judge is configured; false when nobody can answer. */
  confirm(plan: string): Promise<boolean>;
}

/** What a strategy returns when the model has answered. */
export interface TurnOutcome {
  readonly answer: string;
}

/** A replaceable agent loop. The floor it runs on is not replaceable. */
export interface LoopStrategy {
  readonly id: string;
  readonly description: string;
  run(floor: TurnFloor): Promise<TurnOutcome>;
}
