/**
 * The envelope codes that cross a package boundary: raised by one package and matched by another (a host
 * and its plugins, a loop and the kernel, a sandbox runner and its conformance suite). They are wire
 * values, so each keeps its spelling forever; match on these constants, never on a string written again.
 */
export const ContractCodes = {
  /** `ctx.services.get` of a service no plugin provides (NOT_FOUND); `optionalService` turns it into `undefined`. */
  SERVICE_NOT_FOUND: 'SERVICE_NOT_FOUND',
  /** `ctx.services.get` of a service the plugin declared in neither `requires` nor `deps` (PERMISSION_DENIED). */
  SERVICE_UNDECLARED: 'SERVICE_UNDECLARED',
  /** A plugin used something guarded by a permission its manifest does not list (PERMISSION_DENIED). */
  PLUGIN_PERMISSION_UNDECLARED: 'PLUGIN_PERMISSION_UNDECLARED',
  /** A plugin used its context after it was stopped or failed (PRECONDITION_FAILED). */
  PLUGIN_UNLOADED: 'PLUGIN_UNLOADED',
  /** The kernel refused a call until the turn has an approved plan (PRECONDITION_FAILED); a loop answers by planning. */
  PLAN_REQUIRED: 'PLAN_REQUIRED',
  /** A call waits for a person's confirmation (CONFIRMATION_REQUIRED). */
  CONFIRMATION_REQUIRED: 'CONFIRMATION_REQUIRED',
  /** The person declined a call that needed confirmation (CONFIRMATION_REQUIRED). */
  CONFIRMATION_DECLINED: 'CONFIRMATION_DECLINED',
  /** A sandbox run took longer than its `timeoutMs`. */
  SANDBOX_TIMEOUT: 'SANDBOX_TIMEOUT',
  /** A sandbox run used more memory than its limit. */
  SANDBOX_MEMORY: 'SANDBOX_MEMORY',
  /** A sandbox run's output passed its cap. */
  SANDBOX_OUTPUT_CAP: 'SANDBOX_OUTPUT_CAP',
  /** A sandbox run was cancelled through its signal. */
  SANDBOX_CANCELLED: 'SANDBOX_CANCELLED',
  /** A sandbox's limits were not positive numbers. */
  SANDBOX_LIMITS_INVALID: 'SANDBOX_LIMITS_INVALID',
  /** The code given to a sandbox does not load as an ES module. */
  SANDBOX_CODE_INVALID: 'SANDBOX_CODE_INVALID',
  /** The sandboxed module has no default export to call. */
  SANDBOX_NO_DEFAULT_EXPORT: 'SANDBOX_NO_DEFAULT_EXPORT',
  /** The sandboxed code threw. */
  SANDBOX_CODE_THREW: 'SANDBOX_CODE_THREW',
  /** The sandboxed code's process exited before it answered. */
  SANDBOX_CODE_EXITED: 'SANDBOX_CODE_EXITED',
  /** The arguments of a sandbox run are not JSON. */
  SANDBOX_ARGS_NOT_JSON: 'SANDBOX_ARGS_NOT_JSON',
  /** The sandboxed code returned something that is not JSON. */
  SANDBOX_RESULT_NOT_JSON: 'SANDBOX_RESULT_NOT_JSON',
  /** A door (readFile, writeFile, fetch) was used without the grant it needs. */
  SANDBOX_GRANT_MISSING: 'SANDBOX_GRANT_MISSING',
  /** A grant the runner cannot honour as written. */
  SANDBOX_GRANT_INVALID: 'SANDBOX_GRANT_INVALID',
  /** A door was called with an argument of the wrong shape. */
  SANDBOX_DOOR_ARGUMENT: 'SANDBOX_DOOR_ARGUMENT',
  /** A door's answer from the host was not what the runner's protocol allows. */
  SANDBOX_DOOR_ANSWER_INVALID: 'SANDBOX_DOOR_ANSWER_INVALID',
  /** A door call failed without an envelope of its own. */
  SANDBOX_DOOR_FAILED: 'SANDBOX_DOOR_FAILED',
  /** A line read from a runner's channel passed its limit. */
  SANDBOX_READ_LINE_TOO_LONG: 'SANDBOX_READ_LINE_TOO_LONG',
  /** A door's path leads out of the workspace. */
  SANDBOX_PATH_OUTSIDE: 'SANDBOX_PATH_OUTSIDE',
  /** A door's path is one sandboxed code never reaches (`.nodwyn/`, nodwyn's data). */
  SANDBOX_PATH_RESERVED: 'SANDBOX_PATH_RESERVED',
  /** `fetch` to a host the grants do not name. */
  SANDBOX_HOST_NOT_GRANTED: 'SANDBOX_HOST_NOT_GRANTED',
  /** The runtime itself refused an access. */
  SANDBOX_ACCESS_DENIED: 'SANDBOX_ACCESS_DENIED',
} as const;

/** A contract code. */
export type ContractCode = (typeof ContractCodes)[keyof typeof ContractCodes];
