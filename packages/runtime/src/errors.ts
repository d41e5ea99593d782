import { EnvelopeError, type Category, type EnvelopeInit } from '@nodwyn/plugin-api';

/**
 * Every code the runtime raises, with the one category it travels under. The codes are the ones the
 * `nodwyn` command has always shown (people and scripts match on them), so they keep their names.
 */
export const RUNTIME_ERRORS = {
  CONFIG_INVALID_TOML: 'VALIDATION_FAILED',
  CONFIG_INVALID: 'VALIDATION_FAILED',
  /** `config.toml` is a folder (or something else that is not a file). */
  CONFIG_NOT_A_FILE: 'PRECONDITION_FAILED',
  /** `config.toml` exists but cannot be read (permissions). */
  CONFIG_UNREADABLE: 'PRECONDITION_FAILED',
  /** The data folder (`$NODWYN_HOME`, or the XDG data dir) is a file, or lies under one. */
  HOME_NOT_A_DIRECTORY: 'PRECONDITION_FAILED',
  /** The data folder could not be created (permissions). */
  HOME_UNWRITABLE: 'PRECONDITION_FAILED',
  /** `trust.json` is not JSON or not in the shape nodwyn writes. */
  TRUST_STORE_CORRUPT: 'PRECONDITION_FAILED',
  /** `trust.json` exists but cannot be read (permissions, a folder in its place). */
  TRUST_STORE_UNREADABLE: 'PRECONDITION_FAILED',
  /** `trust.json` could not be written. */
  TRUST_STORE_UNWRITABLE: 'PRECONDITION_FAILED',
  /** A workspace asked of `runtime.scope` does not exist or is not a folder. */
  WORKSPACE_NOT_FOUND: 'NOT_FOUND',
  /** `runtime.scope` after `runtime.close()`. */
  RUNTIME_CLOSED: 'PRECONDITION_FAILED',
  /** The plugin trust ledger (`plugins.lock.json`) is not JSON or not in the shape nodwyn writes. */
  PLUGIN_LEDGER_CORRUPT: 'PRECONDITION_FAILED',
  PLUGIN_LEDGER_UNREADABLE: 'PRECONDITION_FAILED',
  PLUGIN_LEDGER_UNWRITABLE: 'PRECONDITION_FAILED',
  /** A third-party plugin the person has not approved, or whose files changed since (`nodwyn plugins approve`). */
  PLUGIN_UNAPPROVED: 'PERMISSION_DENIED',
  /** A third-party plugin a distribution names is installed in none of the folders it is looked up in. */
  PLUGIN_NOT_INSTALLED: 'NOT_FOUND',
  /** A prompt with no provider named: no `--provider`, no `[provider] default`, no `--script`. */
  PROVIDER_NOT_CONFIGURED: 'PRECONDITION_FAILED',
} as const satisfies Record<string, Category>;

/** A code the runtime raises. */
export type RuntimeErrorCode = keyof typeof RUNTIME_ERRORS;

/** The error for `code`, its category taken from the table; `cause` keeps the foreign error it wraps. */
export function runtimeError(code: RuntimeErrorCode, init: Omit<EnvelopeInit, 'category' | 'code'>, cause?: unknown): EnvelopeError {
  return new EnvelopeError({ ...init, category: RUNTIME_ERRORS[code], code }, cause === undefined ? undefined : { cause });
}
