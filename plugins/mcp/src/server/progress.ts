/** Sends one `notifications/progress` for the request being served. */
export type SendProgress = (progress: number, message: string) => Promise<void>;

/** How often a running call says it is still running. */
export const PROGRESS_INTERVAL_MS = 1000;

/**
 * Progress for a call that has a progress token: one notification as it starts, then one every
 * `intervalMs` while it runs, `progress` counting the seconds (the kernel reports no finer progress for a
 * tool call, so the ticks say only that it still runs, and for how long). Returns the stop function.
 */
export function progressTicker(send: SendProgress, name: string, intervalMs = PROGRESS_INTERVAL_MS): () => void {
  const started = Date.now();
  let tick = 0;
  const notify = (message: string): void => {
    send(tick, message).catch(() => undefined);
  };
  notify(`${name} started`);
  const timer = setInterval(() => {
    tick += 1;
    notify(`${name} running (${Math.round((Date.now() - started) / 1000)} s)`);
  }, intervalMs);
  return () => clearInterval(timer);
}
