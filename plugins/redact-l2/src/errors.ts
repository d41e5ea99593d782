import { codedErrors, type Category } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-redact-l2';

/** Every failure code this plugin raises, with its category. None carries a remembered value. */
export const TaintErrorCode = {
  /** The memory in the data directory (`taint.key`, `taint-memory.jsonl`) could not be read or written. */
  TAINT_MEMORY_FAILED: 'INTERNAL',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type TaintErrorCode = keyof typeof TaintErrorCode;

/** Builds the envelope error for `code`; `cause` keeps the foreign error it wraps. */
export const taintError = codedErrors(PLUGIN_NAME, TaintErrorCode).error;
