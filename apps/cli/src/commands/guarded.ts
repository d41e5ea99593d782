import { envelope, toEnvelope, type Envelope } from '@nodwyn/plugin-api';
import { CliCodes } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { InvalidOption } from '../option-parsers.js';
import { formatEnvelope } from '../output.js';
import { jsonText } from '../terminal-text.js';

/**
 * Runs a command body; anything it throws is printed as one envelope (JSON with `--json`) and becomes
 * exit code 3. No stack trace reaches the person.
 */
export async function guarded(json: boolean | undefined, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    return reportFailure(error, json, EXIT.ENVELOPE);
  }
}

/** Prints what was thrown as one envelope on stderr (JSON with `--json`) and returns `exitCode`. */
export function reportFailure(error: unknown, json: boolean | undefined, exitCode: number): number {
  const env = cliEnvelope(error);
  process.stderr.write(json ? `${jsonText(env)}\n` : formatEnvelope(env));
  return exitCode;
}

function cliEnvelope(error: unknown): Envelope {
  if (!(error instanceof InvalidOption)) return toEnvelope(error, { operation: 'nodwyn' });
  return envelope({
    category: 'VALIDATION_FAILED',
    code: CliCodes.OPTION_INVALID,
    operation: 'nodwyn',
    failed_parameter: error.flag,
    received_value: error.value,
    expected: error.expected,
    remediation: `Give ${error.flag} ${error.expected}; see nodwyn help for the command.`,
  });
}
