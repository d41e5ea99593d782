import { WarmSandbox } from './warm-sandbox.js';

/** Memory limits the pool keeps sandboxes for at once; a new limit evicts the least recently used. */
const MAX_LIMITS = 4;
/**
 * How long runs must leave the pool alone before it refills. Building a sandbox blocks the main thread
 * for several milliseconds; refilling between the back-to-back runs of one admission (its examples) would
 * land that cost inside the admission.
 */
const REFILL_IDLE_MS = 20;

/**
 * Keeps a few fresh sandboxes ready, per memory limit (a sandbox's memory cap is fixed when it is built),
 * so a run starts without building one. Building one (an engine instance, a runtime, the prelude) takes a
 * few milliseconds and happens once runs pause, off their path. The compiled
 * WebAssembly module is shared; nothing else is. Nothing is built before the first run: most sessions
 * never run a capability.
 */
export class SandboxPool {
  readonly #ready = new Map<number, WarmSandbox[]>();
  readonly #filling = new Set<number>();
  readonly #timers = new Map<number, NodeJS.Timeout>();

  constructor(private readonly size: number) {}

  /** A fresh sandbox for `memoryMb`: a warm one when there is one, else one built now. */
  async take(memoryMb: number): Promise<WarmSandbox> {
    const sandbox = this.#ready.get(memoryMb)?.pop();
    this.#scheduleFill(memoryMb);
    return sandbox ?? WarmSandbox.create(memoryMb);
  }

  /** Fills the pool for `memoryMb` now (for benchmarks, and hosts that prefer to pay up front). */
  async warm(memoryMb: number): Promise<void> {
    await this.#fill(memoryMb);
  }

  /** Drops every warm sandbox; the pool fills again on the next run. */
  dispose(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#ready.clear();
  }

  /** Refills once no run has taken a sandbox of this limit for REFILL_IDLE_MS. */
  #scheduleFill(memoryMb: number): void {
    const pending = this.#timers.get(memoryMb);
    if (pending) {
      pending.refresh();
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(memoryMb);
      if (this.#filling.has(memoryMb)) return;
      this.#filling.add(memoryMb);
      // A warm-up that fails is not a run's failure: the next run builds its own sandbox and reports.
      this.#fill(memoryMb)
        .catch(() => this.#ready.delete(memoryMb))
        .finally(() => this.#filling.delete(memoryMb));
    }, REFILL_IDLE_MS);
    // A pending refill never keeps the process alive.
    timer.unref();
    this.#timers.set(memoryMb, timer);
  }

  async #fill(memoryMb: number): Promise<void> {
    const ready = this.#ready.get(memoryMb) ?? [];
    this.#ready.delete(memoryMb);
    this.#ready.set(memoryMb, ready);
    for (const stale of [...this.#ready.keys()].slice(0, Math.max(0, this.#ready.size - MAX_LIMITS))) this.#ready.delete(stale);
    while (ready.length < this.size) ready.push(await WarmSandbox.create(memoryMb));
  }
}
