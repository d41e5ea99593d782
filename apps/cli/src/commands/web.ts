import { dataDir } from '@nodwyn/runtime';
import { showLoginLink } from '@nodwyn/plugin-frontend-web';
import { daemonConnection, viaProtocol } from '../agent-connection.js';
import { ensureDaemon } from '../daemon-launcher.js';
import { EXIT } from '../exit-codes.js';
import { reportFailure } from './guarded.js';
import { DEFAULT_SERVE_PORT } from './serve.js';

/** Options of `nodwyn web`. */
export interface WebFlags {
  /** `--no-open` makes this false: print the link instead of opening the browser. */
  open?: boolean;
  port?: number;
}

/**
 * `nodwyn web`: the web console. Starts the daemon detached when none runs for this NODWYN_HOME, gets a
 * one-time login link from it and opens the browser; with `--no-open`, or when no browser can be opened,
 * prints the link as the last line on stdout. Notes go to stderr.
 */
export async function webCommand(flags: WebFlags): Promise<number> {
  try {
    const home = dataDir();
    await ensureDaemon(home, flags.port ?? DEFAULT_SERVE_PORT, note);
    const connection = await daemonConnection(home, { name: 'nodwyn-web' });
    try {
      await viaProtocol(() => showLoginLink(connection.client, { open: flags.open !== false }));
    } finally {
      await connection.close();
    }
    return EXIT.OK;
  } catch (error) {
    return reportFailure(error, false, EXIT.ENVELOPE);
  }
}

function note(line: string): void {
  process.stderr.write(`nodwyn: ${line}\n`);
}
