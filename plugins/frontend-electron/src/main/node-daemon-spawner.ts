import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { DaemonChild, DaemonExit, DaemonSpawner } from './daemon-child.js';

/** How many characters of the child's stderr are kept for `lastError`. */
const STDERR_KEPT = 4000;

/** How to run `nodwyn`: a program and the arguments before `serve --port 0`. */
export interface NodwynCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** Extra environment (`ELECTRON_RUN_AS_NODE=1` when Electron's own binary runs the CLI bundle). */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * A spawner over `node:child_process`: `<command> <args> serve --port 0` with `NODWYN_HOME` set (unless
 * `setHome` is false: the person set none, and the daemon's config then stays in the XDG config folder,
 * as the CLI reads it), stdin closed, stdout read for its first line, stderr's tail kept for the window.
 */
export function nodeDaemonSpawner(nodwyn: NodwynCommand, env: NodeJS.ProcessEnv = process.env, setHome = true): DaemonSpawner {
  return (home) => {
    const child = spawn(nodwyn.command, [...nodwyn.args, 'serve', '--port', '0'], {
      env: { ...env, ...nodwyn.env, ...(setHome ? { NODWYN_HOME: home } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const keep = (text: string) => {
      stderr = (stderr + text).slice(-STDERR_KEPT);
    };
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', keep);
    const exited = new Promise<DaemonExit>((resolve) => {
      child.once('error', (error) => {
        keep(`${nodwyn.command} could not be started: ${error.message}\n`);
        resolve({ code: null, signal: null });
      });
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    const ready = new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.once('line', (line) => resolve(line.trim()));
      void exited.then((exit) => reject(new Error(`the daemon ended before it was ready (${describeExit(exit)})`)));
    });
    ready.catch(() => undefined);
    return {
      pid: child.pid,
      ready,
      exited,
      lastError: () => stderr.trim(),
      stop: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      },
    } satisfies DaemonChild;
  };
}

/** `exit code 3` or `signal SIGKILL`. */
export function describeExit(exit: DaemonExit): string {
  if (exit.signal) return `signal ${exit.signal}`;
  return exit.code === null ? 'it could not be started' : `exit code ${exit.code}`;
}
