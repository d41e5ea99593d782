/** Limits of one run (one prompt until the answer). Every limit is enforced by the turn floor. */
export interface Budgets {
  /** Model calls. */
  readonly maxTurns: number;
  readonly maxToolCalls: number;
  /** Input plus output tokens over all model calls, as the provider reports them. */
  readonly maxTokens: number;
  readonly maxWallMs: number;
  /** The same call with the same arguments this many times ends the run (the progress guard). */
  readonly maxRepeats: number;
  /** Token budget of the window sent to the model. */
  readonly windowTokens: number;
  /** Room kept in the window for the model's answer (at most a quarter of it): compaction aims under the rest. */
  readonly answerTokens: number;
  /** Retries of failed model requests over the whole run (the transport runtime takes one per retry). */
  readonly maxRetries: number;
  /** USD over all model calls, from the providers' price tables; calls without a price count nothing. */
  readonly maxCostUsd: number;
  /** UTF-8 bytes of one tool call's arguments; a larger call ends the model call (at most `TOOL_ARGS_LIMITS.maxBytes`). */
  readonly maxToolArgsBytes: number;
}

/** Defaults that let real work finish and stop a runaway loop. */
export const DEFAULT_BUDGETS: Budgets = {
  maxTurns: 50,
  maxToolCalls: 200,
  maxTokens: 2_000_000,
  maxWallMs: 30 * 60_000,
  maxRepeats: 3,
  windowTokens: 150_000,
  answerTokens: 8_192,
  maxRetries: 10,
  maxCostUsd: Number.POSITIVE_INFINITY,
  maxToolArgsBytes: 1024 * 1024,
};
