import { codedErrors, type Category, type EnvelopeInit } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-sandbox-quickjs';

/**
 * Every failure code this runner raises, with the one category it always travels under, so a code can
 * never be raised under two categories by two different paths.
 */
export const SandboxErrorCode = {
  /** A door was used without its grant (`read`, `write`, `net`). */
  SANDBOX_GRANT_MISSING: 'PERMISSION_DENIED',
  /** A path is absolute, climbs out of the workspace, or leaves it through a symlink. */
  SANDBOX_PATH_OUTSIDE: 'PERMISSION_DENIED',
  /** A path names `.nodwyn/` (in any case, at any depth, directly or through a symlink). */
  SANDBOX_PATH_RESERVED: 'PERMISSION_DENIED',
  /** A `net` grant entry is not exactly `host` or `host:port` (userinfo, a path, an IPv4 shorthand…). */
  SANDBOX_GRANT_INVALID: 'VALIDATION_FAILED',
  /** nodwyn.fetch to a host that is not in the `net` grant. */
  SANDBOX_HOST_NOT_GRANTED: 'PERMISSION_DENIED',
  /** A door was called with arguments of the wrong shape. */
  SANDBOX_DOOR_ARGUMENT: 'VALIDATION_FAILED',
  /** The code does not parse, or imports a module (there are none). */
  SANDBOX_CODE_INVALID: 'VALIDATION_FAILED',
  /** The module has no default export function. */
  SANDBOX_NO_DEFAULT_EXPORT: 'VALIDATION_FAILED',
  /** The code threw (or its promise rejected). */
  SANDBOX_CODE_THREW: 'VALIDATION_FAILED',
  /** The returned value is not plain JSON (undefined, a function, a Date, a cycle, NaN…). */
  SANDBOX_RESULT_NOT_JSON: 'VALIDATION_FAILED',
  /** The code's promise can never settle: nothing is running and no door call is pending. */
  SANDBOX_NEVER_SETTLED: 'VALIDATION_FAILED',
  /** The run's args are not JSON-serialisable. */
  SANDBOX_ARGS_NOT_JSON: 'VALIDATION_FAILED',
  /** A limit in the request is not a positive number. */
  SANDBOX_LIMITS_INVALID: 'VALIDATION_FAILED',
  /** A line of a file is longer than read_file shows, so readFile cannot return the file exactly. */
  SANDBOX_READ_LINE_TOO_LONG: 'LIMIT_EXCEEDED',
  /** The run went past its timeout. */
  SANDBOX_TIMEOUT: 'TIMEOUT',
  /** The run was cancelled through its signal. */
  SANDBOX_CANCELLED: 'CANCELLED',
  /** The code allocated past the memory limit. */
  SANDBOX_MEMORY: 'LIMIT_EXCEEDED',
  /** The result is larger than the output cap. */
  SANDBOX_OUTPUT_CAP: 'LIMIT_EXCEEDED',
  /** A host primitive answered in a shape the door cannot read. */
  SANDBOX_DOOR_ANSWER_INVALID: 'INTERNAL',
  /** The WebAssembly engine itself failed; the runner starts a fresh one for the next run. */
  SANDBOX_ENGINE_FAILED: 'INTERNAL',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type SandboxErrorCode = keyof typeof SandboxErrorCode;

/** What a caller states about a failure; the category and plugin come from the code. */
export type SandboxErrorInit = Omit<EnvelopeInit, 'category' | 'code' | 'plugin'>;

const coded = codedErrors(PLUGIN_NAME, SandboxErrorCode);

/** The envelope for `code`, with its category and this plugin filled in. */
export const sandboxEnvelope = coded.envelope;

/** Builds the envelope error for `code`; `cause` keeps the foreign error it wraps. */
export const sandboxError = coded.error;
