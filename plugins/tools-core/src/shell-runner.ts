import { spawn } from 'node:child_process';
import { errnoOf } from './fs-errors.js';
import { HeadTailBuffer } from './head-tail-buffer.js';

/** One command to run. */
export interface ShellRun {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Bytes of output kept, head and tail together. */
  readonly outputBytes: number;
  /** Time between SIGTERM and SIGKILL. */
  readonly killGraceMs: number;
  readonly env: NodeJS.ProcessEnv;
}

/** How a command ended. */
export interface ShellOutcome {
  /** `exited` on its own, or stopped by us on `timeout` or `cancelled`. */
  readonly ending: 'exited' | 'timeout' | 'cancelled';
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  /** stdout and stderr, interleaved as they arrived, head and tail kept. */
  readonly output: string;
}

/**
 * After bash exits, how long to wait for its output pipes to close. Past it, whatever still holds them is
 * a background job of the command, which is killed with the rest of its process group.
 */
const DRAIN_MS = 200;

/**
 * Runs `bash -c command` as the leader of a new process group, so that on timeout, on cancel and when it
 * exits, everything it started (pipelines, `&` jobs, test workers) can be killed with one signal to the
 * group: SIGTERM, then SIGKILL after a grace period. Processes that leave the group (setsid, nohup with
 * setsid) are beyond reach, as in any shell. Rejects only when bash cannot be started.
 */
export function runShell(run: ShellRun): Promise<ShellOutcome> {
  // A call cancelled before it started must not run at all, not even briefly.
  if (run.signal.aborted) return Promise.resolve({ ending: 'cancelled', exitCode: null, exitSignal: null, output: '' });
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', run.command], { cwd: run.cwd, env: run.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    // A third of the room for the head, the rest for the tail: failures and summaries print last.
    const output = new HeadTailBuffer(Math.floor(run.outputBytes / 3), run.outputBytes - Math.floor(run.outputBytes / 3));
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    let ending: ShellOutcome['ending'] = 'exited';
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drain: NodeJS.Timeout | undefined;
    let done = false;
    const killGroup = () => child.pid !== undefined && terminateGroup(child.pid, run.killGraceMs);
    const stop = (why: 'timeout' | 'cancelled') => {
      if (exit === undefined && ending === 'exited') ending = why;
      killGroup();
    };
    const timer = setTimeout(() => stop('timeout'), run.timeoutMs);
    const onAbort = () => stop('cancelled');
    const settle = (): boolean => {
      if (done) return false;
      done = true;
      clearTimeout(timer);
      clearTimeout(drain);
      run.signal.removeEventListener('abort', onAbort);
      return true;
    };
    const finish = () => {
      if (!settle()) return;
      // Background jobs do not outlive the command; a no-op when the group is already gone.
      killGroup();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ ending, exitCode: exit?.code ?? null, exitSignal: exit?.signal ?? null, output: output.render() });
    };
    child.once('error', (error) => settle() && reject(error));
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      drain = setTimeout(finish, DRAIN_MS);
    });
    child.once('close', finish);
    run.signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** SIGTERM to the whole group now, SIGKILL after the grace period if any of it is left. */
function terminateGroup(pgid: number, graceMs: number): boolean {
  if (!signalGroup(pgid, 'SIGTERM')) return false;
  setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs).unref();
  return true;
}

/** Signals every process of the group; false when none is left that we may signal. */
function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    // ESRCH: the group is gone. EPERM: all that is left belongs to another user (a setuid helper), which
    // we could not kill anyway. Either way there is nothing more to do.
    const code = errnoOf(error);
    if (code === 'ESRCH' || code === 'EPERM') return false;
    throw error;
  }
}
