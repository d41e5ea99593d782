import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { isCorruption, rebuiltIfDamaged, removeIndex } from './index-db.js';
import type { FtsQuery } from './fts-query.js';
import { RepoIndex, type IndexPolicy, type PassCounts, type RepoSearch } from './repo-index.js';
import { walkFiles } from './repo-walk.js';

/** Longest one slice of a pass holds the event loop before it yields to other work. */
const SLICE_MS = 25;

/** What a pass reports when it ends. */
export interface PassReport extends PassCounts {
  readonly ms: number;
}

/** Where the index stands, for a search to say whether its answer is partial. */
export interface Readiness {
  /** False while the first full pass has not finished: files not yet indexed are not searched. */
  readonly complete: boolean;
  /** Files indexed as text so far; counted only when incomplete (-1 otherwise). */
  readonly files: number;
}

/**
 * Keeps one workspace's repository index fresh without ever holding a turn for more than a budget. A full
 * pass (walk, stat, re-read what changed) runs in the background in short slices; a search starts one when
 * the last is older than `rescanMs`, waits for it at most its budget, and then answers from what is
 * indexed, saying when that is partial. Paths known to have changed (a file tool wrote them) are brought
 * up to date at once, before the search, which is cheap: one stat and one read per path.
 */
export class RepoIndexer {
  #index: RepoIndex;
  #pass: Promise<PassReport> | undefined;
  #lastPassEnded = Number.NEGATIVE_INFINITY;
  readonly #dirty = new Set<string>();
  #closing = false;
  /** A full pass must finish (within the budget) before the next search: something may have changed anything. */
  #mustWait = false;
  /** Something may have changed files the running pass already went by: another pass is due when it ends. */
  #staleAgain = false;

  constructor(
    private readonly file: string,
    private readonly root: string,
    private readonly policy: () => IndexPolicy,
    private readonly options: { readonly rescanMs: number; readonly skip?: readonly string[] },
  ) {
    this.#index = RepoIndex.open(file, root);
  }

  /** The index as it stands (for searching). */
  get index(): RepoIndex {
    return this.#index;
  }

  /** Notes paths (relative, `/`) a tool changed, to be brought up to date before the next search. */
  changed(paths: Iterable<string>): void {
    for (const path of paths) this.#dirty.add(path);
  }

  /** Asks for a full pass at the next search, whatever the age of the last one (a shell command ran). */
  stale(): void {
    this.#lastPassEnded = Number.NEGATIVE_INFINITY;
    this.#mustWait = true;
    if (this.#pass) this.#staleAgain = true;
  }

  /**
   * Gets the index ready for a search: the changed paths at once, and a full pass started if due. The
   * search waits for the pass (at most `budgetMs`) only while the index is incomplete or a shell command
   * may have changed anything; a routine re-check of a complete index goes on behind the answer. Never
   * throws for a pass that failed: the next search starts another.
   */
  async ready(budgetMs: number, signal?: AbortSignal): Promise<Readiness> {
    this.#guarded(() => this.flushChanged());
    const deadline = Date.now() + budgetMs;
    if (!this.#pass && Date.now() - this.#lastPassEnded >= this.options.rescanMs) this.#pass = this.#startPass();
    const wait = this.#mustWait || !this.#guarded(() => this.#index.complete);
    this.#mustWait = false;
    // A pass that was already under way when a shell command ran may have gone by what it changed: once
    // it ends, one more pass runs, within the same budget.
    for (let pass = this.#pass; wait && pass && Date.now() < deadline && !signal?.aborted; ) {
      await waitAtMost(pass, deadline - Date.now(), signal);
      if (this.#pass || this.#lastPassEnded !== Number.NEGATIVE_INFINITY) break;
      pass = this.#pass = this.#startPass();
    }
    // Counting the indexed files costs a scan of the table: only a partial answer reports it.
    return this.#guarded(() => (this.#index.complete ? { complete: true, files: -1 } : { complete: false, files: this.#index.files }));
  }

  /**
   * Searches the index (see `RepoIndex.search`). An index found damaged on the way is deleted and a new
   * pass started, and the answer is empty and partial rather than taken from a file nodwyn cannot trust.
   */
  search(query: FtsQuery, options: Parameters<RepoIndex['search']>[1]): RepoSearch & { readonly readiness?: Readiness } {
    try {
      return this.#index.search(query, options);
    } catch (error) {
      if (!isCorruption(error)) throw error;
      this.reset();
      this.#pass ??= this.#startPass();
      return { hits: [], truncated: false, readiness: { complete: false, files: 0 } };
    }
  }

  /** Brings the changed paths up to date now. */
  flushChanged(): void {
    if (this.#dirty.size === 0) return;
    const paths = [...this.#dirty];
    this.#dirty.clear();
    this.#index.update(paths, this.policy());
  }

  /** Runs a full pass to its end (for `nodwyn memory rebuild` and benchmarks). */
  async pass(): Promise<PassReport> {
    this.#pass ??= this.#startPass();
    return this.#pass;
  }

  /** Deletes the index file and starts from nothing. */
  reset(): void {
    this.#index.close();
    removeIndex(this.file);
    this.#index = RepoIndex.open(this.file, this.root);
  }

  /** Lets the pass in progress end at its next slice and closes the index. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#pass?.catch(() => undefined);
    this.#index.close();
  }

  #startPass(): Promise<PassReport> {
    const run = this.#runPass().finally(() => {
      this.#pass = undefined;
      this.#lastPassEnded = this.#staleAgain ? Number.NEGATIVE_INFINITY : Date.now();
      this.#staleAgain = false;
    });
    // A failed background pass is not lost: the next search starts another (a corrupt file was reset).
    run.catch(() => undefined);
    return run;
  }

  async #runPass(): Promise<PassReport> {
    const started = performance.now();
    const counts: PassCounts = { checked: 0, reread: 0, removed: 0 };
    try {
      const known = this.#index.known();
      const unseen = new Map([...known].map(([path, row]) => [path, row.id]));
      const files = walkFiles({ root: this.root, skip: this.options.skip });
      const policy = this.policy();
      const walk = { done: false };
      while (!walk.done) {
        if (this.#closing) return { ...counts, ms: performance.now() - started };
        this.#index.update(slice(files, performance.now() + SLICE_MS, unseen, walk), policy, known, counts);
        if (!walk.done) await yieldToLoop();
      }
      this.#index.remove(unseen.values(), counts);
      this.#index.markComplete();
      return { ...counts, ms: performance.now() - started };
    } catch (error) {
      if (isCorruption(error)) this.reset();
      throw error;
    }
  }

  #guarded<T>(fn: () => T): T {
    return rebuiltIfDamaged(fn, () => this.reset());
  }
}

// The files of one slice: pulled from the walk until the slice's time is up or the walk ends.
function* slice(files: Iterator<string>, ends: number, unseen: Map<string, number>, walk: { done: boolean }): Generator<string> {
  while (performance.now() < ends) {
    const next = files.next();
    if (next.done) {
      walk.done = true;
      return;
    }
    unseen.delete(next.value);
    yield next.value;
  }
}

async function waitAtMost(work: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      work.catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
        onAbort = () => resolve();
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
