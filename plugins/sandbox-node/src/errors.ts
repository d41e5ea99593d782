import { codedErrors, type Category, type EnvelopeInit } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-sandbox-node';

/** The operation every run envelope names, so a person can tell which runner failed. */
export const OPERATION = 'sandbox.node';

/**
 * Every failure code this plugin raises, with the one category it always travels under, so a code can
 * never be raised under two categories by two different paths.
 */
export const SandboxNodeErrorCode = {
  /** Node cannot restrict the network, and the run was granted none while the network is not cut another way. */
  SANDBOX_NETWORK_UNCONTAINED: 'PERMISSION_DENIED',
  /** A door (readFile, writeFile, fetch) was used without its grant. */
  SANDBOX_GRANT_MISSING: 'PERMISSION_DENIED',
  /** A door path leaves the workspace: `..`, absolute, or a symlink that points out. */
  SANDBOX_PATH_OUTSIDE: 'PERMISSION_DENIED',
  /** A door path reaches `.nodwyn/` (any case) or nodwyn's data directory. */
  SANDBOX_PATH_RESERVED: 'PERMISSION_DENIED',
  /** A door was called with arguments it cannot use: a path that is empty, holds a NUL or does not resolve; text that is not a string; a URL or request options fetch cannot send. */
  SANDBOX_DOOR_ARGUMENT: 'VALIDATION_FAILED',
  /** fetch named a host outside the `net` grant. */
  SANDBOX_HOST_NOT_GRANTED: 'PERMISSION_DENIED',
  /** readFile met a line longer than read_file shows whole, so the text cannot be given back exactly. */
  SANDBOX_READ_LINE_TOO_LONG: 'LIMIT_EXCEEDED',
  /** Node's permission model refused an API (fs outside the door, child_process, worker, inspector, …). */
  SANDBOX_ACCESS_DENIED: 'PERMISSION_DENIED',
  /** The run passed its wall-time limit and was killed. */
  SANDBOX_TIMEOUT: 'TIMEOUT',
  /** The caller's signal aborted the run; the process was killed. */
  SANDBOX_CANCELLED: 'CANCELLED',
  /** Logs plus result passed the output cap; the process was killed. */
  SANDBOX_OUTPUT_CAP: 'LIMIT_EXCEEDED',
  /** The code passed its memory limit (V8 heap, or resident memory). */
  SANDBOX_MEMORY: 'LIMIT_EXCEEDED',
  /** The code queued more door calls than the runner serves at once. */
  SANDBOX_DOOR_FLOOD: 'LIMIT_EXCEEDED',
  /** The code threw (or rejected) instead of returning. */
  SANDBOX_CODE_THREW: 'VALIDATION_FAILED',
  /** The code is not a string, or the module did not load (a syntax error, an import that does not resolve). */
  SANDBOX_CODE_INVALID: 'VALIDATION_FAILED',
  /** The module has no default export function. */
  SANDBOX_NO_DEFAULT_EXPORT: 'VALIDATION_FAILED',
  /** The returned value is not JSON-serialisable. */
  SANDBOX_RESULT_NOT_JSON: 'VALIDATION_FAILED',
  /** The process ended before answering (process.exit, a crash). */
  SANDBOX_CODE_EXITED: 'VALIDATION_FAILED',
  /** The runner's channel carried something that is not its protocol (the code wrote to file descriptor 3). */
  SANDBOX_CHANNEL_CORRUPT: 'VALIDATION_FAILED',
  /** The run's args are not JSON-serialisable. */
  SANDBOX_ARGS_NOT_JSON: 'VALIDATION_FAILED',
  /** A limit is not a positive number. */
  SANDBOX_LIMITS_INVALID: 'VALIDATION_FAILED',
  /** The child process could not be started, or its files not written. */
  SANDBOX_SPAWN_FAILED: 'INTERNAL',
  /** `[plugins."@nodwyn/plugin-sandbox-node"]` in config.toml has a key of the wrong type. */
  CONFIG_INVALID: 'VALIDATION_FAILED',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type SandboxNodeErrorCode = keyof typeof SandboxNodeErrorCode;

/** What a caller states about a failure; the category, plugin and operation come from here. */
export type SandboxNodeErrorInit = Omit<EnvelopeInit, 'category' | 'code' | 'plugin'>;

const coded = codedErrors(PLUGIN_NAME, SandboxNodeErrorCode, { operation: OPERATION });

/** The envelope for `code`, with its category, this plugin and the run operation filled in. */
export const nodeEnvelope = coded.envelope;

/** Builds the envelope error for `code`; `cause` keeps the foreign error it wraps. */
export const nodeError = coded.error;
