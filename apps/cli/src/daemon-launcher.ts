import { EnvelopeError } from '@nodwyn/plugin-api';
import { ensureDataDir } from '@nodwyn/runtime';
import type { DaemonFile } from '@nodwyn/server';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runningDaemon } from './agent-connection.js';
import { CliCodes } from './errors.js';

/** How long `nodwyn serve` may take to write serve.json. */
const START_TIMEOUT_MS = 20_000;

/**
 * The daemon of `home`: the one running, else `nodwyn serve --port PORT` started detached (it outlives
 * this command; its output goes to `$NODWYN_HOME/serve.log`), once its serve.json names a live process.
 * A daemon that exits first, or is not up within 20 s, is DAEMON_START_FAILED with its last output.
 */
export async function ensureDaemon(home: string, port: number, note: (line: string) => void): Promise<DaemonFile> {
  const running = runningDaemon(home);
  if (running) return running;
  ensureDataDir(home);
  const logFile = join(home, 'serve.log');
  const out = openSync(logFile, 'w', 0o600);
  note(`starting the daemon (nodwyn serve --port ${port}); its output goes to ${logFile}`);
  let exited: number | null | undefined;
  try {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, 'serve', '--port', String(port)], { detached: true, stdio: ['ignore', out, out], cwd: home, env: process.env });
    child.once('exit', (code) => (exited = code));
    child.once('error', () => (exited = -1));
    child.unref();
  } finally {
    closeSync(out);
  }
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const file = runningDaemon(home);
    if (file) return file;
    if (exited !== undefined || Date.now() > deadline) throw startFailed(home, logFile, exited);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function startFailed(home: string, logFile: string, exited: number | null | undefined): EnvelopeError {
  let output = '';
  try {
    output = readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {
    output = '(no output)';
  }
  return new EnvelopeError({
    category: exited === undefined ? 'TIMEOUT' : 'PRECONDITION_FAILED',
    code: CliCodes.DAEMON_START_FAILED,
    operation: 'serve',
    received_value: output.slice(0, 200),
    remediation:
      exited === undefined
        ? `nodwyn serve did not write ${home}/serve.json within ${START_TIMEOUT_MS / 1000} s; see ${logFile}, or run nodwyn serve yourself to see why.`
        : `nodwyn serve exited (code ${String(exited)}) before it served: ${output || 'see ' + logFile}. Fix that, or run nodwyn serve yourself to see why.`,
  });
}
