/**
 * What is left of a turn's retries. The kernel makes one per turn and hands it to every model call of
 * that turn (`ModelRequest.retries`); the transport runtime takes one before each retry and stops
 * retrying when none is left.
 */
export interface RetryBudget {
  /** Retries left in this turn. */
  readonly remaining: number;
  /** Takes one retry; false when the budget is spent. */
  take(): boolean;
}

/** How a request is retried. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 4). */
  readonly maxAttempts: number;
  /** First backoff ceiling in ms (default 500); the ceiling doubles per attempt. */
  readonly baseMs: number;
  /** Longest wait, whether from backoff or from the server's Retry-After (default 30 000). */
  readonly maxMs: number;
}

/** The runtime's default policy. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseMs: 500, maxMs: 30_000 };

/** A budget of `total` retries. */
export function retryBudget(total: number): RetryBudget {
  let left = Math.max(0, Math.floor(total));
  return {
    get remaining() {
      return left;
    },
    take() {
      if (left === 0) return false;
      left -= 1;
      return true;
    },
  };
}
