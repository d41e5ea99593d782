import { codedErrors, type Category, type EnvelopeInit } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-sandbox-deno';

/** The operation every run envelope names, so a person can tell which runner failed. */
export const OPERATION = 'sandbox.deno';

/**
 * Every failure code this plugin raises, with the one category it always travels under, so a code can
 * never be raised under two categories by two different paths.
 */
export const SandboxDenoErrorCode = {
  /** No Deno binary for this platform (the npm package `deno` installs one only for the platforms it ships). */
  SANDBOX_RUNTIME_MISSING: 'PRECONDITION_FAILED',
  /** A door (readFile, writeFile, fetch) was used without its grant. */
  SANDBOX_GRANT_MISSING: 'PERMISSION_DENIED',
  /** A `net` grant entry is not `host` or `host:port`, so it cannot become a Deno flag. */
  SANDBOX_GRANT_INVALID: 'VALIDATION_FAILED',
  /** A run granted both read and net: Deno's own reads and requests bypass the egress edge, so it is refused unless allowed in config. */
  SANDBOX_UNGUARDED_EGRESS: 'PERMISSION_DENIED',
  /** A door path leaves the workspace: `..`, absolute, or a symlink that points out. */
  SANDBOX_PATH_OUTSIDE: 'PERMISSION_DENIED',
  /** A door path reaches `.nodwyn/` (any case) or one of nodwyn's own folders. */
  SANDBOX_PATH_RESERVED: 'PERMISSION_DENIED',
  /** readFile met a line longer than read_file shows whole, so the file cannot be returned exactly. */
  SANDBOX_READ_LINE_TOO_LONG: 'LIMIT_EXCEEDED',
  /** read_file's answers could not be put back together into the whole file. */
  SANDBOX_DOOR_ANSWER_INVALID: 'INTERNAL',
  /** The workspace is not an existing folder, or the runner's temp folder lies inside it. */
  SANDBOX_WORKSPACE_INVALID: 'PRECONDITION_FAILED',
  /** A door was called with arguments it cannot use (a path that is empty or holds a NUL, text that is not a string, a URL fetch cannot send). */
  SANDBOX_DOOR_ARGUMENT: 'VALIDATION_FAILED',
  /** readFile named a file that does not exist. */
  SANDBOX_FILE_NOT_FOUND: 'NOT_FOUND',
  /** fetch named a host outside the `net` grant. */
  SANDBOX_HOST_NOT_GRANTED: 'PERMISSION_DENIED',
  /** fetch could not reach the host (refused, reset, DNS, TLS). */
  SANDBOX_FETCH_FAILED: 'TRANSPORT_FAILED',
  /** Deno's permissions refused an API (a file outside the grants, a process, the environment, a host). */
  SANDBOX_ACCESS_DENIED: 'PERMISSION_DENIED',
  /** The run passed its wall-time limit and was killed. */
  SANDBOX_TIMEOUT: 'TIMEOUT',
  /** The caller's signal aborted the run; the process was killed. */
  SANDBOX_CANCELLED: 'CANCELLED',
  /** The result, or what the process wrote, passed the output cap. */
  SANDBOX_OUTPUT_CAP: 'LIMIT_EXCEEDED',
  /** The code passed its memory limit (V8 heap, or resident memory). */
  SANDBOX_MEMORY: 'LIMIT_EXCEEDED',
  /** The code threw (or rejected) instead of returning. */
  SANDBOX_CODE_THREW: 'VALIDATION_FAILED',
  /** The code is not a string, or the module did not load (a syntax error, an import that does not resolve). */
  SANDBOX_CODE_INVALID: 'VALIDATION_FAILED',
  /** The module has no default export function. */
  SANDBOX_NO_DEFAULT_EXPORT: 'VALIDATION_FAILED',
  /** The returned value is not JSON-serialisable. */
  SANDBOX_RESULT_NOT_JSON: 'VALIDATION_FAILED',
  /** The process ended before answering (Deno.exit, a crash, a promise that can never settle). */
  SANDBOX_CODE_EXITED: 'VALIDATION_FAILED',
  /** The run's args are not JSON-serialisable. */
  SANDBOX_ARGS_NOT_JSON: 'VALIDATION_FAILED',
  /** A limit is not a positive number. */
  SANDBOX_LIMITS_INVALID: 'VALIDATION_FAILED',
  /** The Deno process could not be started, or its temp folder not written. */
  SANDBOX_SPAWN_FAILED: 'INTERNAL',
  /** `[plugins."@nodwyn/plugin-sandbox-deno"]` in config.toml has a key of the wrong type. */
  CONFIG_INVALID: 'VALIDATION_FAILED',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type SandboxDenoErrorCode = keyof typeof SandboxDenoErrorCode;

/** What a caller states about a failure; the category, plugin and operation come from here. */
export type SandboxDenoErrorInit = Omit<EnvelopeInit, 'category' | 'code' | 'plugin'>;

const coded = codedErrors(PLUGIN_NAME, SandboxDenoErrorCode, { operation: OPERATION });

/** The envelope for `code`, with its category, this plugin and the run operation filled in. */
export const denoEnvelope = coded.envelope;

/** Builds the envelope error for `code`; `cause` keeps the foreign error it wraps. */
export const denoError = coded.error;

/** True when `code` is one of this plugin's codes (the harness reports codes by name). */
export function isSandboxDenoErrorCode(code: unknown): code is SandboxDenoErrorCode {
  return typeof code === 'string' && Object.hasOwn(SandboxDenoErrorCode, code);
}
