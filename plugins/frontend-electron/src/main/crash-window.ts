/** Crashes within this window count towards the crash loop (docs/frontends.md). */
export const CRASH_WINDOW_MS = 30_000;
/** This many crashes within the window stop the restarts until the person asks for one. */
export const CRASH_LOOP_LIMIT = 3;

/**
 * The crash-loop rule: the times of the daemon's unexpected exits, and whether they add up to a loop.
 * Tendril restarted its daemon forever; a daemon that dies on boot then burns CPU and hides its error
 * behind an endless "restarting". Here three crashes within 30 s stop the restarts, and only the
 * person's "restart" clears the count.
 */
export class CrashWindow {
  private times: number[] = [];

  /** Records a crash at `now`; answers how many crashes fall within the window ending at `now`. */
  record(now: number): number {
    this.times = [...this.times.filter((t) => now - t < CRASH_WINDOW_MS), now];
    return this.times.length;
  }

  /** Crashes within the window ending at `now`. */
  count(now: number): number {
    return this.times.filter((t) => now - t < CRASH_WINDOW_MS).length;
  }

  /** Whether `crashes` (from `record`) is a crash loop. */
  static isLoop(crashes: number): boolean {
    return crashes >= CRASH_LOOP_LIMIT;
  }

  /** Forgets every crash: the person asked for a restart. */
  clear(): void {
    this.times = [];
  }
}
