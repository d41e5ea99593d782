import { serveStdio, SessionManager } from '@nodwyn/server';
import { openAgentRuntime } from '../agent-runtime.js';
import { EXIT } from '../exit-codes.js';
import { VERSION } from '../version.js';
import { guarded } from './guarded.js';
import { untilSignal } from './until-signal.js';

/**
 * `nodwyn acp`: the agent over stdio for an editor (ACP as newline-delimited JSON on stdin and stdout;
 * notices on stderr). Ends when the editor closes stdin, or on SIGINT/SIGTERM/SIGHUP; either way running
 * turns end as cancelled, logged, and the database is closed.
 */
export async function acpCommand(): Promise<number> {
  return guarded(false, async () => {
    const runtime = await openAgentRuntime();
    const sessions = new SessionManager(runtime);
    const signal = untilSignal();
    try {
      await Promise.race([serveStdio(sessions, { name: 'nodwyn', version: VERSION }), signal.received]);
    } finally {
      signal.dispose();
      await sessions.shutdown();
      await runtime.close();
    }
    return EXIT.OK;
  });
}
