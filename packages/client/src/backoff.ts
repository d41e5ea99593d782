/** How a WebSocket client comes back after its connection dropped. */
export interface ReconnectOptions {
  /** Attempts before the client gives up and closes; 10 unless set. */
  readonly maxAttempts?: number;
  /** The first attempt's ceiling, doubled per attempt; 100 ms unless set. */
  readonly baseMs?: number;
  /** The highest ceiling; 5 000 ms unless set. */
  readonly capMs?: number;
}

/** The reconnect policy with every default filled in. */
export type ReconnectPolicy = Required<ReconnectOptions>;

/** Fills in the defaults: at most 10 attempts, 100 ms doubling up to 5 s. */
export function reconnectPolicy(options: ReconnectOptions = {}): ReconnectPolicy {
  return { maxAttempts: options.maxAttempts ?? 10, baseMs: options.baseMs ?? 100, capMs: options.capMs ?? 5_000 };
}

/**
 * Full-jitter exponential backoff: random() * min(capMs, baseMs * 2 ** (attempt - 1)); attempt is 1-based.
 * The jitter spreads the clients one daemon restart dropped together, so they do not all come back in
 * the same millisecond. Whole milliseconds, never above the cap.
 */
export function backoffDelay(attempt: number, policy: ReconnectPolicy, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  const ceiling = Math.max(0, Math.min(policy.capMs, policy.baseMs * 2 ** exponent));
  return Math.floor(Math.min(1, Math.max(0, random())) * ceiling);
}

/** Resolves after `ms`, or at once when `signal` aborts (the caller checks which). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
