import { isEnvelopeError } from '@nodwyn/plugin-api';
import { dataDir, ensureDataDir } from '@nodwyn/runtime';
import { startDaemon, stopDaemon } from '@nodwyn/server';
import { openAgentRuntime } from '../agent-runtime.js';
import { EXIT } from '../exit-codes.js';
import { serveSettings } from '../serve-settings.js';
import { VERSION } from '../version.js';
import { webRoot } from '../web-root.js';
import { reportFailure } from './guarded.js';
import { untilSignal } from './until-signal.js';

/** The port `nodwyn serve` listens on unless told otherwise. */
export const DEFAULT_SERVE_PORT = 7420;

/** Options of `nodwyn serve`. */
export interface ServeFlags {
  port?: number;
  stop?: boolean;
}

/** Codes that mean "the daemon is (not) there": exit 1, as a check that failed. */
const CHECK_CODES = new Set(['DAEMON_RUNNING', 'DAEMON_NOT_RUNNING']);

/**
 * `nodwyn serve`: the daemon. Prints the URL on stdout, writes serve.json, and serves until SIGTERM (or
 * `nodwyn serve --stop`), which ends running turns as cancelled and closes the database cleanly. It
 * serves the web console at its `http` URL too; `[serve]` in the person's config.toml may move it off
 * loopback, over TLS only (docs/frontends.md).
 */
export async function serveCommand(flags: ServeFlags): Promise<number> {
  try {
    return await (flags.stop ? stop() : serve(flags.port ?? DEFAULT_SERVE_PORT));
  } catch (error) {
    return reportFailure(error, false, isEnvelopeError(error) && CHECK_CODES.has(error.envelope.code ?? '') ? EXIT.CHECK_FAILED : EXIT.ENVELOPE);
  }
}

async function stop(): Promise<number> {
  const file = await stopDaemon(dataDir());
  process.stdout.write(`nodwyn serve (pid ${file.pid}, ${file.url}) stopped\n`);
  return EXIT.OK;
}

async function serve(port: number): Promise<number> {
  const home = dataDir();
  ensureDataDir(home);
  const settings = serveSettings();
  const runtime = await openAgentRuntime();
  let daemon;
  try {
    daemon = await startDaemon({ home, port, runtime, info: { name: 'nodwyn', version: VERSION }, ...settings, webRoot: webRoot() });
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const signal = untilSignal();
  process.stdout.write(`${daemon.file.url}\n`);
  process.stderr.write(`nodwyn: serving ${daemon.file.url} and the web console at ${daemon.file.http} (pid ${process.pid}); the token is in ${home}/serve.json; log in with nodwyn web; stop with nodwyn serve --stop\n`);
  try {
    await signal.received;
  } finally {
    signal.dispose();
    await daemon.stop();
  }
  return EXIT.OK;
}
