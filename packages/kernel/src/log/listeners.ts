import type { LogEvent } from '@nodwyn/protocol';

/** Called with each event after its transaction committed. */
export type LogListener = (event: LogEvent) => void;

/** Told when a listener threw; the append it was told about has committed regardless. */
export type ListenerErrorHandler = (error: unknown, event: LogEvent) => void;

/**
 * Delivers committed events to in-process subscribers, in commit order. Events are queued and drained
 * by one loop, so a listener that appends (a reaction to an event) has its own event delivered after
 * the rest of the current batch, never in the middle of it: every listener sees each session in seq
 * order. A listener that throws is reported, not rethrown: the append already committed, and failing
 * it now would tell the caller a lie.
 */
export class ListenerHub {
  readonly #listeners = new Set<LogListener>();
  readonly #queue: LogEvent[] = [];
  readonly #onError: ListenerErrorHandler;
  #draining = false;

  constructor(onError?: ListenerErrorHandler) {
    this.#onError = onError ?? reportOncePerListener();
  }

  /** Adds a listener; returns its unsubscribe function. */
  subscribe(listener: LogListener): () => void {
    // A wrapper per subscription, so subscribing one function twice gives two independent subscriptions.
    const entry: LogListener = (event) => listener(event);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Queues committed events and delivers them, unless a delivery further up the stack is already draining. */
  publish(events: readonly LogEvent[]): void {
    if (this.#listeners.size === 0 || events.length === 0) return;
    this.#queue.push(...events);
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let event = this.#queue.shift(); event !== undefined; event = this.#queue.shift()) this.#deliver(event);
    } finally {
      this.#draining = false;
    }
  }

  /** Drops every listener (on close). */
  clear(): void {
    this.#listeners.clear();
    this.#queue.length = 0;
  }

  #deliver(event: LogEvent): void {
    // A snapshot: a listener that unsubscribes (itself or another) mid-delivery changes the next event only.
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#report(error, event);
      }
    }
  }

  #report(error: unknown, event: LogEvent): void {
    try {
      this.#onError(error, event);
    } catch (handlerError) {
      console.error('nodwyn log: the onListenerError handler threw', handlerError);
    }
  }
}

/**
 * The default error handler: a console line for the 1st, 10th, 100th, … listener error, so a broken
 * subscriber is visible without flooding the console on every event.
 */
function reportOncePerListener(): ListenerErrorHandler {
  let reported = 0;
  return (error, event) => {
    reported += 1;
    if (reported === 1 || Number.isInteger(Math.log10(reported))) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(
        `nodwyn log: a subscriber threw on ${event.type} (session ${event.session}, seq ${event.seq}): ${message}` +
          ` [${reported} listener error(s) so far; pass onListenerError to EventLog.open to handle them]`,
      );
    }
  };
}
