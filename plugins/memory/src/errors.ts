import { codedErrors, type Category, type EnvelopeInit } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-memory';

/** Every failure code this plugin raises, with the one category it always travels under. */
export const MemoryErrorCode = {
  /** The `[memory]` section of the person's configuration does not validate. */
  MEMORY_CONFIG_INVALID: 'VALIDATION_FAILED',
  /** A search query is not valid FTS5 syntax, or holds no word to look for. */
  MEMORY_QUERY_INVALID: 'VALIDATION_FAILED',
  /** `recall` was asked for a seq the session does not have. */
  MEMORY_EVENT_NOT_FOUND: 'NOT_FOUND',
  /** `search_history` without the person's leave (`[memory] cross_session = true`). */
  MEMORY_CROSS_SESSION_DISABLED: 'PERMISSION_DENIED',
  /** No text layer (the `redactor` service) is loaded, so repository text cannot be indexed safely. */
  MEMORY_TEXT_LAYERS_MISSING: 'PRECONDITION_FAILED',
  /** The `path` of `search_repo` is outside the workspace. */
  MEMORY_PATH_OUTSIDE_WORKSPACE: 'PERMISSION_DENIED',
  /** An index file could not be opened or rebuilt (a full disk, a data folder that is not writable). */
  MEMORY_INDEX_FAILED: 'PRECONDITION_FAILED',
  /** The call was cancelled while the index was searched or brought up to date. */
  MEMORY_CANCELLED: 'CANCELLED',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type MemoryErrorCode = keyof typeof MemoryErrorCode;

/** What a tool states about a failure; the category and plugin come from the code. */
export type MemoryErrorInit = Omit<EnvelopeInit, 'category' | 'code' | 'plugin'>;

/** Builds the envelope error for `code`; `cause` keeps the foreign error it wraps. */
export const memoryError = codedErrors(PLUGIN_NAME, MemoryErrorCode).error;

/** Throws the envelope error for `code`. */
export function memoryFail(code: MemoryErrorCode, init: MemoryErrorInit, cause?: unknown): never {
  throw memoryError(code, init, cause);
}
