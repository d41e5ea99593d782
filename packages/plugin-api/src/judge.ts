import type { ModelMessage } from './provider.js';
import { createToken } from './tokens.js';

/** What the judge may see of a session (`[judge] content`), enforced by the judge and logged per call. */
export const JUDGE_CONTENT = ['none', 'plan', 'plan+summaries', 'full'] as const;
/** A `judge.content` level. */
export type JudgeContent = (typeof JUDGE_CONTENT)[number];

/** A plan to score against the person's ask (seam A). */
export interface PlanReview {
  readonly session: string;
  readonly ask: string;
  readonly plan: string;
  /** 1 for the first draft, up to 3 revisions after it. */
  readonly round: number;
  /** The window so far, for `plan+summaries` (tool results summarised) and `full`. */
  readonly window: readonly ModelMessage[];
}

/** The judge's verdict on a plan. The decision is made in code from the score, never by the judge's text. */
export interface PlanVerdict {
  readonly approved: boolean;
  /** 0..1. */
  readonly score: number;
  /** What to change, for the model's next draft; empty when approved. */
  readonly feedback: string;
}

/** An ambiguous egress situation (seam C): class, destination and scope only, never a value. */
export interface EgressSituation {
  readonly session: string;
  /** Classes the request carries (`none` when it carries no known secret or taint). */
  readonly classes: readonly string[];
  /** `host[:port]/path-prefix` of the destination. */
  readonly destination: string;
  /** The method, the tool and the tier, e.g. `POST via http_request (mutate)`. */
  readonly scope: string;
}

/** The judge's score of an egress situation. */
export interface EgressVerdict {
  /** True when the score clears the configured threshold; below it the call needs a person. */
  readonly allow: boolean;
  readonly score: number;
}

/**
 * The judge (plugin `judge`). Every method fails closed: a judge that fails or times out throws an
 * `EnvelopeError`, and the caller treats that as "not approved".
 */
export interface Judge {
  /** False when `[judge]` names no provider: then every method fails closed and plans go to the person. */
  readonly configured: boolean;
  /** What the judge may see (`[judge] content`); with `none`, seam A and the gate do not run. */
  readonly content: JudgeContent;
  /** Whether the gate and seam A run for every ask (`--judge` or `[judge] mode = "on"`). */
  readonly planMode: boolean;
  /** The plan gate: a yes/no on intent only (the ask), logged. */
  gate(session: string, ask: string, signal: AbortSignal): Promise<boolean>;
  /** Seam A: scores a draft plan against the ask. */
  scorePlan(review: PlanReview, signal: AbortSignal): Promise<PlanVerdict>;
  /** Seam C: scores an ambiguous egress situation. */
  scoreEgress(situation: EgressSituation, signal: AbortSignal): Promise<EgressVerdict>;
}

/** The judge service. */
export const JudgeToken = createToken<Judge>('judge');
