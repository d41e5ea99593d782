import { codedErrors, type Category } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-loop-default';

/** Every failure code the default loop raises, with the one category it always travels under. */
export const LoopErrorCode = {
  /** The person did not approve the plan (or nobody could be asked). */
  PLAN_REJECTED: 'PRECONDITION_FAILED',
  /** The judge did not approve any draft within the revisions allowed. */
  PLAN_NOT_APPROVED: 'PRECONDITION_FAILED',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type LoopErrorCode = keyof typeof LoopErrorCode;

/** Builds the envelope error for `code`, with its category and this plugin filled in. */
export const loopError = codedErrors(PLUGIN_NAME, LoopErrorCode).error;
