import { envelope, jsonPath, valueAt, type Envelope } from '@nodwyn/plugin-api';
import type { z } from 'zod';
import { KernelCodes } from '../errors.js';

function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected;
    case 'too_small':
      return `${issue.origin} of at least ${String(issue.minimum)}`;
    case 'too_big':
      return `${issue.origin} of at most ${String(issue.maximum)}`;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `no key named ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}

/**
 * Checks arguments against a primitive's input schema. The first issue becomes a `VALIDATION_FAILED`
 * envelope whose `failed_parameter` is a JSON path into the arguments.
 */
export function preflight<T>(
  schema: z.ZodType<T>,
  args: unknown,
  operation: string,
): { ok: true; value: T } | { ok: false; envelope: Envelope } {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  const where = jsonPath(path);
  return {
    ok: false,
    envelope: envelope({
      category: 'VALIDATION_FAILED',
      code: KernelCodes.TOOL_ARGS_INVALID,
      operation,
      failed_parameter: where,
      received_value: valueAt(args, path),
      expected: expectedOf(issue),
      remediation: `Fix ${where} (${issue.message}) and call ${operation} again; see the tool's input schema.`,
    }),
  };
}
