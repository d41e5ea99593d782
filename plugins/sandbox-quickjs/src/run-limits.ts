import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from '@nodwyn/plugin-api/sandbox';
import { sandboxError } from './errors.js';

/** The request's limits over the defaults; a limit that is not a positive finite number is refused. */
export function resolveLimits(requested: Partial<SandboxLimits> | undefined): SandboxLimits {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...requested };
  for (const key of ['timeoutMs', 'outputCap', 'memoryMb'] as const) {
    const value = limits[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw sandboxError('SANDBOX_LIMITS_INVALID', {
        operation: 'sandbox.run',
        failed_parameter: `$.limits.${key}`,
        received_value: value,
        expected: 'a positive number',
        remediation: `limits.${key} must be a positive number; leave it out to get the default (${DEFAULT_SANDBOX_LIMITS[key]}).`,
      });
    }
  }
  return limits;
}

/** The run's args as JSON text, for the VM's own JSON.parse; anything else is refused. */
export function argsText(args: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(args ?? null);
  } catch (error) {
    throw notJson(error);
  }
  if (text === undefined) throw notJson(undefined);
  return text;
}

function notJson(cause: unknown) {
  return sandboxError(
    'SANDBOX_ARGS_NOT_JSON',
    { operation: 'sandbox.run', failed_parameter: '$.args', expected: 'a JSON value', remediation: 'Pass the capability JSON arguments (objects, arrays, strings, numbers, booleans, null).' },
    cause,
  );
}
