import { toEnvelope } from '@nodwyn/plugin-api';
import { EXIT } from '../exit-codes.js';
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
    const env = toEnvelope(error, { operation: 'nodwyn' });
    process.stderr.write(json ? `${jsonText(env)}\n` : formatEnvelope(env));
    return EXIT.ENVELOPE;
  }
}
