import type { RetryPolicy } from './retry-types.js';

/**
 * Full-jitter exponential backoff: random() * min(maxMs, baseMs * 2 ** (retry - 1)); retry is 1-based.
 * Full jitter (rather than a fixed doubling) spreads the clients that failed together, so they do not
 * come back together and overload the server again. Whole milliseconds, never above the ceiling.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.floor(retry) - 1);
  const ceiling = Math.max(0, Math.min(policy.maxMs, policy.baseMs * 2 ** exponent));
  const factor = Math.min(1, Math.max(0, random()));
  return Math.floor(factor * ceiling);
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * `retry-after-ms` (ms, fractional ok) wins, else `Retry-After` as delta-seconds or an HTTP-date;
 * undefined when absent/invalid; never negative. Whole milliseconds, rounded up so a client never comes
 * back earlier than asked. A date already past means "now" (0).
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const precise = headers?.get('retry-after-ms')?.trim();
  if (precise !== undefined && DECIMAL.test(precise)) return wholeMs(Number(precise));
  const value = headers?.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (DECIMAL.test(value)) return wholeMs(Number(value) * 1000);
  // Every HTTP-date form (IMF-fixdate, RFC 850, asctime) names a day or month; requiring a letter keeps
  // Date.parse's leniency from reading a stray number such as "-5" as a year.
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, Math.ceil(at - now)) : undefined;
}

/** Rounds up; a value too large to be a number of milliseconds is invalid. */
function wholeMs(ms: number): number | undefined {
  return Number.isFinite(ms) ? Math.ceil(ms) : undefined;
}
