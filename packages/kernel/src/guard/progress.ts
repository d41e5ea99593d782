import type { ToolProgress } from '@nodwyn/plugin-api';

/** Longest progress message passed on; a tool's message is a status line, not output. */
export const PROGRESS_MESSAGE_MAX = 200;
/** Fewest milliseconds between two reports passed on: a tool that reports in a tight loop cannot flood front ends. */
export const PROGRESS_MIN_INTERVAL_MS = 100;

/**
 * What a handler's `progress` calls: reports with a finite `progress` pass on, at most one every
 * `PROGRESS_MIN_INTERVAL_MS` (the one that reaches `total` always), the message cut to a status line.
 * The listener's failures never reach the tool.
 */
export function progressReporter(listener: (update: ToolProgress) => void, now: () => number = Date.now): (update: ToolProgress) => void {
  let last = -Infinity;
  return (update) => {
    const { progress, total, message } = update ?? {};
    if (typeof progress !== 'number' || !Number.isFinite(progress)) return;
    const done = typeof total === 'number' && progress >= total;
    const at = now();
    if (!done && at - last < PROGRESS_MIN_INTERVAL_MS) return;
    last = at;
    try {
      listener({
        progress,
        ...(typeof total === 'number' && Number.isFinite(total) ? { total } : {}),
        ...(typeof message === 'string' && message !== '' ? { message: message.slice(0, PROGRESS_MESSAGE_MAX) } : {}),
      });
    } catch {
      // A front end that fails to take a report is not the tool's failure.
    }
  };
}
