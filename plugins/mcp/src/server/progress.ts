import type { ToolProgress } from '@nodwyn/plugin-api';

/** Sends one `notifications/progress` for the request being served. */
export type SendProgress = (update: ToolProgress) => Promise<void>;

/** How often a running call says it is still running. */
export const PROGRESS_INTERVAL_MS = 1000;

/** A running call's progress: the ticks, and the tool's own reports, which take over from them. */
export interface CallProgress {
  /** A report of the tool itself; sent only when it moves past what the client was last told. */
  report(update: ToolProgress): void;
  stop(): void;
}

/**
 * Progress for a call that has a progress token: one notification as it starts, then one every
 * `intervalMs` while it runs, `progress` counting the seconds, which says only that it still runs, and
 * for how long. Once the tool reports progress of its own, the ticks stop and its reports go out instead,
 * each only if it moves past the last one sent (MCP's progress must grow with every notification).
 */
export function progressTicker(send: SendProgress, name: string, intervalMs = PROGRESS_INTERVAL_MS): CallProgress {
  const started = Date.now();
  let sent = 0;
  let tick = 0;
  const notify = (update: ToolProgress): void => {
    sent = update.progress;
    send(update).catch(() => undefined);
  };
  notify({ progress: 0, message: `${name} started` });
  const timer = setInterval(() => {
    tick += 1;
    notify({ progress: tick, message: `${name} running (${Math.round((Date.now() - started) / 1000)} s)` });
  }, intervalMs);
  return {
    report(update) {
      clearInterval(timer);
      if (update.progress > sent) notify(update);
    },
    stop: () => clearInterval(timer),
  };
}
