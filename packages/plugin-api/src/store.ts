/**
 * A plugin's own transactional store in the kernel's database (outside the workspace). Keys are the
 * plugin's alone: two plugins never see each other's. Values are JSON. Every method is synchronous, so a
 * `transaction` is one SQLite transaction: all its writes land, or (when it throws, or the process dies
 * half-way) none do.
 */
export interface PluginStore {
  /** The value stored under `key`, or undefined. */
  get(key: string): unknown;
  /** Stores `value` (JSON-serialisable) under `key`, replacing what was there. */
  put(key: string, value: unknown): void;
  /** Removes `key`; true when it existed. */
  delete(key: string): boolean;
  /** Every entry whose key starts with `prefix`, in key order (code units). */
  list(prefix?: string): { readonly key: string; readonly value: unknown }[];
  /**
   * Runs `fn` in one transaction and returns its result. Events the plugin appends inside it
   * (`context.events.append`) commit or roll back with the writes. `fn` must not be async.
   */
  transaction<T>(fn: () => T): T;
}
