import { backoffDelay } from '@nodwyn/plugin-api/transport';

/** How a server that failed is restarted: half a second, doubling up to 30 seconds. */
const RESTART = { maxAttempts: Infinity, baseMs: 500, maxMs: 30_000 };

/**
 * The wait before restart `attempt` (1-based): exponential and capped, with jitter over its upper half,
 * so a crashing server is never restarted in a tight loop and many do not come back together.
 */
export function restartDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RESTART.maxMs, RESTART.baseMs * 2 ** (Math.max(1, attempt) - 1));
  return Math.ceil(ceiling / 2) + Math.floor(backoffDelay(attempt, RESTART, random) / 2);
}
