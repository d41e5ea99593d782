import { z } from '@nodwyn/plugin-api';
import { judgeError } from './errors.js';
import { firstJsonObject } from './first-json-object.js';

/** Longest feedback passed on to the model that revises the plan. */
const FEEDBACK_MAX = 1000;

/** An answer the judge is asked for: its schema, and how the prompt and envelopes spell it. */
export interface AnswerShape<T> {
  readonly schema: z.ZodType<T>;
  readonly expected: string;
}

/** The gate's answer: does the ask need a plan first? */
export const GATE_ANSWER: AnswerShape<{ plan_needed: boolean }> = {
  schema: z.object({ plan_needed: z.boolean() }),
  expected: '{"plan_needed": true|false}',
};

/** Seam A and C answers: a score in 0..1 and, for a plan, what to change. */
export const SCORE_ANSWER: AnswerShape<{ score: number; feedback: string }> = {
  schema: z.object({ score: z.number().min(0).max(1), feedback: z.string().default('').transform((text) => text.slice(0, FEEDBACK_MAX)) }),
  expected: '{"score": 0..1, "feedback": "..."}',
};

/**
 * Reads the judge's answer: the first JSON object in its text, checked against the shape. Anything else
 * (prose, a score out of range, a missing field) is `JUDGE_FAILED`, which every caller treats as "no".
 * The answer is never quoted back: the judge's text must not steer what the envelope says.
 */
export function readAnswer<T>(text: string, shape: AnswerShape<T>, operation: string): T {
  const parsed = shape.schema.safeParse(firstJsonObject(text));
  if (parsed.success) return parsed.data;
  throw judgeError('JUDGE_FAILED', {
    operation,
    expected: shape.expected,
    remediation:
      'The judge did not answer with the JSON it was asked for, so its answer counts as "no" (the decision fails closed). Make [judge] model in config.toml a model that follows instructions, or tell the user the judge is not usable.',
  });
}
