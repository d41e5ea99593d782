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
  /** The window for the next model call: built from the log's end once per turn, then kept in step with it. */
  window(): Promise<readonly ModelMessage[]>;
  /**
   * The same window with where each message comes from and its size, and the budget it must fit (the
   * window budget less room for the answer). No log read: a compaction policy may ask before every call.
   */
  windowView(): WindowView;
  /**
   * Summarises the events `fromSeq`..`toSeq` of this session with the turn's model, and logs the text (through
   * the text layers) as `summary.added`, which replaces that span in every later window. A failure (model
   * error, withheld output, a summary no smaller than its span) is logged as `summary.failed` and returned:
   * the window stays as it was.
   */
  summarize(request: SummaryRequest): Promise<SummaryOutcome>;
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

/** What a window message stands for: `summary` replaces a span of events, `pinned` is the session's first ask. */
export type WindowEntryKind = 'user' | 'note' | 'assistant' | 'tool' | 'summary' | 'pinned';

/** One message of the window and the events it was derived from. */
export interface WindowEntry {
  readonly message: ModelMessage;
  readonly kind: WindowEntryKind;
  /** The session of the events (a fork's window begins with its parent's). */
  readonly session: string;
  /** The first and last seq the message stands for (one event, or a summary's span). */
  readonly fromSeq: number;
  readonly toSeq: number;
  /** Estimated tokens (4 characters a token). */
  readonly tokens: number;
}

/** The window for the next model call, as the turn floor keeps it. */
export interface WindowView {
  readonly entries: readonly WindowEntry[];
  /** The sum of the entries' tokens. */
  readonly tokens: number;
  /** What the window should fit for the answer to have room: the window budget less the answer's share. */
  readonly budget: number;
}

/** A span of this session's events to summarise; it must hold whole steps (a call never without its result). */
export interface SummaryRequest {
  readonly fromSeq: number;
  readonly toSeq: number;
  /** What the summary should keep above all (`/compact FOCUS`). */
  readonly focus?: string;
}

/** A summary logged (`seq` of its `summary.added`), or why none was. */
export type SummaryOutcome =
  | { readonly ok: true; readonly seq: number; readonly tokens: number }
  | { readonly ok: false; readonly envelope: Envelope };

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
