import type { DaemonState } from '@nodwyn/protocol';
import { sleep, type Clock } from './clock.js';
import { CrashWindow } from './crash-window.js';
import type { DaemonChild, DaemonSpawner } from './daemon-child.js';
import type { DaemonEndpoint, ServeFileReader } from './daemon-endpoint.js';
import { describeExit } from './node-daemon-spawner.js';

/** How long a child has to print its URL before it counts as failed. */
export const READY_TIMEOUT_MS = 30_000;
/** The pause before a crashed daemon is started again. */
export const RESTART_DELAY_MS = 1_000;
/** How often an attached daemon (not our child) is checked for life. */
export const ATTACHED_POLL_MS = 2_000;
/** How long a stopping daemon has before the supervisor moves on. */
export const STOP_TIMEOUT_MS = 10_000;

/** What the supervisor needs from the machine. */
export interface SupervisorDeps {
  /** The nodwyn home the daemon serves. */
  readonly home: string;
  readonly spawn: DaemonSpawner;
  readonly readServeFile: ServeFileReader;
  readonly clock: Clock;
  /** Whether a process lives (for a daemon the app attached to rather than started). */
  readonly isAlive: (pid: number) => boolean;
  /** Asks a process that is not our child to stop (SIGTERM). */
  readonly terminate: (pid: number) => void;
}

/** One spawned child and what the supervisor knows of it. */
interface Run {
  readonly child: DaemonChild;
  /** The supervisor stopped it, or already dealt with its failure: its exit is not a crash. */
  expected: boolean;
  ready: boolean;
}

/** How a start ended. */
type StartOutcome = { ok: true } | { ok: false; error: string };

const SETTLED = new Set<DaemonState['state']>(['running', 'crash-loop', 'failed', 'stopped']);

/**
 * Keeps the desktop app's daemon: attaches to a live one named by serve.json, else runs `nodwyn serve` as
 * a child, restarts it when it crashes (three crashes within 30 s stop that: `crash-loop`, until the
 * person asks), and tells listeners each state. It never sends anything to the daemon: a prompt that was
 * pending when it crashed is not replayed; the page reopens the session from the log (docs/frontends.md).
 */
export class DaemonSupervisor {
  private current: Run | undefined;
  private attached: DaemonEndpoint | undefined;
  private live: DaemonEndpoint | undefined;
  private snapshot: DaemonState = { state: 'stopped', crashes: 0 };
  private readonly crashes = new CrashWindow();
  private readonly listeners = new Set<(state: DaemonState) => void>();
  private timer: unknown;

  constructor(private readonly deps: SupervisorDeps) {}

  /** The daemon's state now. */
  state(): DaemonState {
    return this.snapshot;
  }

  /** The running daemon's serve.json, when one runs. */
  endpoint(): DaemonEndpoint | undefined {
    return this.snapshot.state === 'running' ? this.live : undefined;
  }

  /** Calls `listener` on every state change; answers the unsubscribe. */
  onChange(listener: (state: DaemonState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Attaches to a live daemon of the home, else starts one; resolves once running, crash-looping or stopped. */
  async start(): Promise<DaemonState> {
    const existing = await this.deps.readServeFile(this.deps.home);
    if (existing && this.deps.isAlive(existing.pid)) {
      this.attached = existing;
      this.live = existing;
      this.set({ state: 'running', pid: existing.pid, crashes: 0 });
      this.watchAttached(existing);
      return this.snapshot;
    }
    void this.launch('starting');
    return this.settled();
  }

  /** The person's restart: forgets the crashes (ending a crash loop), stops the daemon, starts it again. */
  async restart(): Promise<DaemonState> {
    this.crashes.clear();
    await this.stopCurrent();
    void this.launch('restarting');
    return this.settled();
  }

  /**
   * Stops the daemon and starts it once, with no restart if the new one fails (state `failed`): the
   * settings path restores the previous config on that answer and starts again.
   */
  async startOnce(): Promise<StartOutcome> {
    await this.stopCurrent();
    const run = this.spawnRun('restarting');
    const outcome = await this.waitReady(run);
    if (!outcome.ok) this.set({ state: 'failed', crashes: this.crashes.count(this.deps.clock.now()), lastError: outcome.error });
    return outcome;
  }

  /** Starts the daemon after a `failed` start (the settings path, once the previous config is back). */
  async resume(): Promise<DaemonState> {
    await this.stopCurrent();
    void this.launch('restarting');
    return this.settled();
  }

  /** Stops the child (an attached daemon is left running: it is not ours). */
  async stop(): Promise<void> {
    this.clearTimer();
    const run = this.current;
    this.current = undefined;
    this.attached = undefined;
    if (run) await this.stopRun(run);
    this.set({ state: 'stopped', crashes: this.snapshot.crashes });
  }

  private async launch(phase: 'starting' | 'restarting'): Promise<void> {
    const run = this.spawnRun(phase);
    const outcome = await this.waitReady(run);
    if (!outcome.ok && this.current === run) this.crashed(outcome.error);
  }

  private spawnRun(phase: 'starting' | 'restarting'): Run {
    this.clearTimer();
    const child = this.deps.spawn(this.deps.home);
    const run: Run = { child, expected: false, ready: false };
    this.current = run;
    this.live = undefined;
    const { lastError } = this.snapshot;
    this.set({ state: phase, ...(child.pid ? { pid: child.pid } : {}), crashes: this.crashes.count(this.deps.clock.now()), ...(lastError ? { lastError } : {}) });
    void child.exited.then((exit) => {
      if (run.expected || !run.ready || this.current !== run) return;
      const tail = child.lastError();
      this.crashed(`the daemon stopped unexpectedly (${describeExit(exit)})${tail ? `:\n${tail}` : ''}`);
    });
    return run;
  }

  /** Waits for the child's URL and serve.json; on failure the run is stopped and marked handled. */
  private async waitReady(run: Run): Promise<StartOutcome> {
    let handle: unknown;
    const timeout = new Promise<StartOutcome>((resolve) => {
      handle = this.deps.clock.setTimeout(() => resolve({ ok: false, error: `the daemon did not become ready within ${READY_TIMEOUT_MS / 1000} s` }), READY_TIMEOUT_MS);
    });
    const ready = run.child.ready.then(
      async (url): Promise<StartOutcome> => {
        const file = await this.deps.readServeFile(this.deps.home);
        if (file?.url === url) {
          this.live = file;
          return { ok: true };
        }
        return { ok: false, error: `the daemon printed ${url} but serve.json does not name it` };
      },
      async (): Promise<StartOutcome> => {
        const exit = await run.child.exited;
        const tail = run.child.lastError();
        return { ok: false, error: `the daemon failed to start (${describeExit(exit)})${tail ? `:\n${tail}` : ''}` };
      },
    );
    const outcome = await Promise.race([ready, timeout]);
    this.deps.clock.clearTimeout(handle);
    if (this.current !== run) return { ok: false, error: 'the daemon was replaced while it started' };
    if (outcome.ok) {
      run.ready = true;
      this.set({ state: 'running', ...(run.child.pid ? { pid: run.child.pid } : {}), crashes: this.crashes.count(this.deps.clock.now()) });
    } else {
      run.expected = true;
      run.child.stop();
    }
    return outcome;
  }

  /** An unexpected end: restart after a pause, unless this makes three within the window. */
  private crashed(error: string): void {
    const crashes = this.crashes.record(this.deps.clock.now());
    this.live = undefined;
    if (CrashWindow.isLoop(crashes)) {
      this.set({ state: 'crash-loop', crashes, lastError: error });
      return;
    }
    this.set({ state: 'restarting', crashes, lastError: error });
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined;
      void this.launch('restarting');
    }, RESTART_DELAY_MS);
  }

  private watchAttached(endpoint: DaemonEndpoint): void {
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.attached !== endpoint) return;
      if (this.deps.isAlive(endpoint.pid)) return this.watchAttached(endpoint);
      this.attached = undefined;
      this.crashed(`the daemon this app attached to (pid ${endpoint.pid}) has ended`);
    }, ATTACHED_POLL_MS);
  }

  private async stopCurrent(): Promise<void> {
    this.clearTimer();
    const attached = this.attached;
    this.attached = undefined;
    if (attached) {
      this.deps.terminate(attached.pid);
      for (let waited = 0; waited < STOP_TIMEOUT_MS && this.deps.isAlive(attached.pid); waited += 100) await sleep(this.deps.clock, 100);
    }
    const run = this.current;
    if (run) await this.stopRun(run);
  }

  private async stopRun(run: Run): Promise<void> {
    run.expected = true;
    run.child.stop();
    let handle: unknown;
    await Promise.race([run.child.exited, new Promise<void>((resolve) => (handle = this.deps.clock.setTimeout(resolve, STOP_TIMEOUT_MS)))]);
    this.deps.clock.clearTimeout(handle);
  }

  private settled(): Promise<DaemonState> {
    if (SETTLED.has(this.snapshot.state)) return Promise.resolve(this.snapshot);
    return new Promise((resolve) => {
      const off = this.onChange((state) => {
        if (!SETTLED.has(state.state)) return;
        off();
        resolve(state);
      });
    });
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private set(state: DaemonState): void {
    this.snapshot = state;
    for (const listener of [...this.listeners]) listener(state);
  }
}
