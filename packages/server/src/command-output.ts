import type { z } from '@nodwyn/plugin-api';
import { serverErrors } from './errors.js';

/** A plugin command's `--json` output, checked against what the console method answers with. */
export function parsedOutput<S extends z.ZodType>(stdout: string, schema: S, command: string): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch (error) {
    throw invalid(command, 'it is not JSON', error);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw invalid(command, parsed.error.issues[0]!.message);
}

function invalid(command: string, problem: string, cause?: unknown): Error {
  return serverErrors.error('COMMAND_OUTPUT_INVALID', { operation: command, remediation: `\`nodwyn ${command}\` printed what the console cannot read (${problem}); update the plugin that provides it.` }, cause);
}
