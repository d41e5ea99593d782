import type { Envelope } from '@nodwyn/protocol';
import { EnvelopeError, isEnvelopeError } from '../envelope.js';
import { backoffDelay } from './backoff.js';
import { isRetryableFailure } from './http-failure.js';
import { cancelledEnvelope, isAbortError, networkFailureEnvelope, streamBrokenEnvelope, type FailureContext } from './network-failure.js';
import { pause } from './pause.js';
import type { RetryBudget, RetryPolicy } from './retry-types.js';

/** How `retryingStream` retries, and what it yields around a retry. */
export interface RetryingStreamOptions<T> {
  readonly policy: RetryPolicy;
  readonly budget: RetryBudget;
  readonly signal: AbortSignal;
  readonly provider: string;
  readonly operation: string;
  /** Items that count as delivered content; once one was yielded the stream is never replayed. Default: every item. */
  readonly isContent?: (item: T) => boolean;
  /**
   * The item to yield before waiting for a retry (providers yield a ModelStreamEvent `retry`). `attempt`
   * is the attempt that follows the wait (2 for the first retry).
   */
  readonly notice?: (retry: { attempt: number; delayMs: number; reason: string }) => T;
  /** For tests: the random source of the jitter and the sleep. */
  readonly random?: () => number;
}

/**
 * Runs `attempt(n)` (n = 1, 2, …) and yields its items. A failure before any content is retried when
 * `isRetryableFailure`, attempts and the budget allow, after the server's retry-after (when it exceeds
 * policy.maxMs the runtime does not retry and returns the envelope with retry_after_ms) or full-jitter
 * backoff; the wait is abortable. A failure after content is thrown at once (never replayed). Everything
 * thrown is an EnvelopeError whose trace.attempts counts the attempts made; an abort is CANCELLED.
 */
export async function* retryingStream<T>(attempt: (n: number) => AsyncIterable<T>, options: RetryingStreamOptions<T>): AsyncIterable<T> {
  const context: FailureContext = { provider: options.provider, operation: options.operation };
  const isContent = options.isContent ?? (() => true);
  for (let n = 1; ; n++) {
    if (options.signal.aborted) throw new EnvelopeError(cancelledEnvelope(context, n - 1));
    let delivered = false;
    let failure: Envelope;
    try {
      for await (const item of attempt(n)) {
        if (!delivered && isContent(item)) delivered = true;
        yield item;
      }
      return;
    } catch (error) {
      failure = failureOf(error, n, delivered, options.signal, context);
      if (delivered || !isRetryableFailure(failure)) throw new EnvelopeError(failure, { cause: error });
    }
    const delayMs = nextDelay(failure, n, options);
    if (typeof delayMs !== 'number') throw new EnvelopeError(delayMs);
    if (options.notice) yield options.notice({ attempt: n + 1, delayMs, reason: reasonOf(failure) });
    if (!(await pause(delayMs, options.signal))) throw new EnvelopeError(cancelledEnvelope(context, n));
  }
}

/** What attempt `n` failed with, as an envelope that names the runtime's view: cancelled, broken, or as raised. */
function failureOf(error: unknown, n: number, delivered: boolean, signal: AbortSignal, context: FailureContext): Envelope {
  let env: Envelope;
  if (signal.aborted || isAbortError(error)) env = cancelledEnvelope(context);
  else if (isEnvelopeError(error)) env = error.envelope;
  else env = networkFailureEnvelope(error, { ...context, afterContent: delivered });
  if (delivered && isRetryableFailure(env)) env = streamBrokenEnvelope(context, env.code ?? env.category, env);
  return {
    ...env,
    operation: env.operation ?? context.operation,
    plugin: env.plugin ?? context.provider,
    trace: { attempts: n },
  };
}

/** The wait before attempt n + 1, or the envelope to end with when the runtime does not retry. */
function nextDelay<T>(failure: Envelope, n: number, options: RetryingStreamOptions<T>): number | Envelope {
  if (n >= options.policy.maxAttempts) return failure;
  const asked = failure.retry_after_ms ?? undefined;
  if (asked !== undefined && asked > options.policy.maxMs) return failure;
  if (!options.budget.take()) {
    return {
      ...failure,
      remediation: `${failure.remediation} The turn's retry budget is spent, so nodwyn did not retry; a new turn starts with a fresh budget.`,
    };
  }
  return asked ?? backoffDelay(n, options.policy, options.random);
}

function reasonOf(failure: Envelope): string {
  const code = failure.code ?? failure.category;
  return failure.http_status === null ? code : `${code} (HTTP ${failure.http_status})`;
}
