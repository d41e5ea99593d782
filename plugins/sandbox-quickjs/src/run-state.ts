import type { Envelope } from '@nodwyn/plugin-api';
import type { QuickJSDeferredPromise } from 'quickjs-emscripten-core';
import { LogBuffer } from './log-buffer.js';

/** Why a run was stopped from outside its code. */
export type StopReason = 'timeout' | 'cancel';

/**
 * The host side of one run: its deadline and signal, the taint it gathered, its logs, the envelopes of
 * refused door calls, and the door calls still in flight. Door calls finish on the host's own schedule;
 * their answers are queued here and handed to the VM only by the run loop, so the VM is never entered
 * while it is already running.
 */
export class RunState {
  readonly taint = new Set<string>();
  readonly logs: LogBuffer;
  /** Envelopes of refused door calls, by the id their VM error carries. */
  readonly refusals = new Map<number, Envelope>();
  readonly deadline: number;
  #stop: StopReason | undefined;
  #inflight = new Set<QuickJSDeferredPromise>();
  #answers: (() => void)[] = [];
  #wake: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #onAbort = (): void => this.#notify();

  constructor(
    readonly signal: AbortSignal,
    timeoutMs: number,
    outputCap: number,
  ) {
    this.logs = new LogBuffer(outputCap);
    this.deadline = Date.now() + timeoutMs;
  }

  /** Starts watching the deadline and the signal. */
  start(): void {
    this.#timer = setTimeout(() => this.#notify(), Math.max(0, this.deadline - Date.now()));
    this.signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** Stops watching the deadline and the signal; answers that come later are dropped with the sandbox. */
  finish(): void {
    clearTimeout(this.#timer);
    this.signal.removeEventListener('abort', this.#onAbort);
    this.#answers = [];
    this.#inflight.clear();
  }

  /** The reason to stop now, if any; the interrupt handler and the run loop both ask. */
  stopReason(): StopReason | undefined {
    if (this.#stop) return this.#stop;
    if (this.signal.aborted) this.#stop = 'cancel';
    else if (Date.now() >= this.deadline) this.#stop = 'timeout';
    return this.#stop;
  }

  /** Milliseconds left before the deadline. */
  remainingMs(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  /** A door call began; the run waits for it while its code waits on it. */
  track(deferred: QuickJSDeferredPromise): void {
    this.#inflight.add(deferred);
  }

  /** A door call finished on the host: queue how to answer it in the VM. */
  answer(deferred: QuickJSDeferredPromise, settle: () => void): void {
    if (!this.#inflight.has(deferred)) return;
    this.#answers.push(() => {
      this.#inflight.delete(deferred);
      settle();
    });
    this.#notify();
  }

  /** Hands every queued answer to the VM. Only the run loop calls this, between VM calls. */
  deliver(): void {
    const answers = this.#answers;
    this.#answers = [];
    for (const settle of answers) settle();
  }

  /** True while a door call is in flight or answered but not yet delivered. */
  get waiting(): boolean {
    return this.#inflight.size > 0;
  }

  /** Resolves when a door call is answered, the deadline passes or the signal aborts. */
  wait(): Promise<void> {
    if (this.#answers.length > 0 || this.stopReason()) return Promise.resolve();
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Adds the tags of a host answer to the run's taint. */
  addTaint(tags: readonly string[]): void {
    for (const tag of tags) this.taint.add(tag);
  }

  /** The run's taint, sorted, for every later door call and the result. */
  taintList(): string[] {
    return [...this.taint].sort();
  }
}
