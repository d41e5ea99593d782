import { codedErrors, type Category, type EnvelopeInit } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-judge';

/**
 * Every failure code the judge raises, with the one category it always travels under. Each failure of a
 * judge call is a "no" to whoever asked: the plan is not approved, the egress is denied.
 */
export const JudgeErrorCode = {
  /** The `[judge]` section of the configuration does not validate. */
  CONFIG_INVALID: 'VALIDATION_FAILED',
  /** `[judge]` names no provider, so there is no judge to ask. */
  JUDGE_NOT_CONFIGURED: 'PRECONDITION_FAILED',
  /** `[judge] content = "none"`: the judge may not see a plan, so it cannot score one. */
  JUDGE_CONTENT_NONE: 'PRECONDITION_FAILED',
  /** The judge's model failed, or answered something that is not the JSON it was asked for. */
  JUDGE_FAILED: 'UPSTREAM_UNAVAILABLE',
  /** The judge's model did not answer within `[judge] timeout_ms`. */
  JUDGE_TIMEOUT: 'TIMEOUT',
  /** The turn was cancelled while the judge was thinking. */
  JUDGE_CANCELLED: 'CANCELLED',
  /** The text layer failed on the judge's payload, so nothing was sent. */
  JUDGE_REDACTION_FAILED: 'INTERNAL',
  /** An egress target's URL cannot be parsed, so its situation cannot be described to the judge. */
  JUDGE_EGRESS_TARGET_INVALID: 'VALIDATION_FAILED',
  /** The judge scored an egress below the threshold and no person was there to confirm it. */
  JUDGE_EGRESS_UNCERTAIN: 'CONFIRMATION_REQUIRED',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type JudgeErrorCode = keyof typeof JudgeErrorCode;

/** What a caller states about a failure; the category and plugin come from the code. */
export type JudgeErrorInit = Omit<EnvelopeInit, 'category' | 'code' | 'plugin'>;

const coded = codedErrors(PLUGIN_NAME, JudgeErrorCode);

/** The envelope for `code`, with its category and this plugin filled in. */
export const judgeEnvelope = coded.envelope;

/** Builds the envelope error for `code`; `cause` keeps the foreign error it wraps. */
export const judgeError = coded.error;
