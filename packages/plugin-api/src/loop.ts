import type { Envelope, ToolCall, Usage } from '@nodwyn/protocol';
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
