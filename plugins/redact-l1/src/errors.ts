import { codedErrors, type Category } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-redact-l1';

/**
 * Every failure code this plugin raises, with the one category it always travels under. None of them
 * ever carries the text that was being redacted: it may hold the secret.
 */
export const RedactErrorCode = {
  /** The detector failed on a text; the text was withheld instead of passed on unredacted. */
  REDACT_FAILED: 'INTERNAL',
  /** A `nodwyn redact --jsonl` line is not a JSON object with a string `text`. */
  REDACT_INPUT_INVALID: 'VALIDATION_FAILED',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type RedactErrorCode = keyof typeof RedactErrorCode;

/** Builds the envelope error for `code`; `cause` keeps the foreign error it wraps. */
export const redactError = codedErrors(PLUGIN_NAME, RedactErrorCode).error;
