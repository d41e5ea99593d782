import type { PluginStore } from '../store.js';

/**
 * Where the idempotency keys of `auto` and `caller_owned` operations are kept, so a repeat of the same
 * intent (same `scope` = operation id, same logical id) sends the same key (docs/architecture.md §8).
 * The key is stored before the request is sent: a process that dies mid-call repeats with it.
 */
export interface IdempotencyStore {
  /** The key stored for this intent, or undefined. */
  get(scope: string, logicalId: string): string | undefined;
  /** Stores the key of this intent, replacing any earlier one. */
  put(scope: string, logicalId: string, key: string): void;
}

/** How long a stored key stands for its intent (a day, as payment APIs keep theirs). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Puts between two sweeps of expired keys. */
const SWEEP_EVERY = 64;

/** How long keys are kept; the clock is for tests. */
export interface IdempotencyStoreOptions {
  readonly ttlMs?: number;
  readonly now?: () => number;
}

/** A stored key and when it was stored. */
interface Entry {
  readonly key: string;
  readonly at: number;
}

function entryOf(value: unknown): Entry | undefined {
  const entry = value as Partial<Entry> | null | undefined;
  return typeof entry?.key === 'string' && typeof entry.at === 'number' ? { key: entry.key, at: entry.at } : undefined;
}

/**
 * Keys over a plain key-value map: a key older than `ttlMs` is gone (a repeat after that is a new intent),
 * and every `SWEEP_EVERY` puts the expired ones are deleted, so the store does not grow without end.
 */
function expiringStore(
  map: { get(id: string): unknown; put(id: string, entry: Entry): void; delete(id: string): void; entries(): Iterable<readonly [string, unknown]> },
  options: IdempotencyStoreOptions,
): IdempotencyStore {
  const ttl = options.ttlMs ?? IDEMPOTENCY_TTL_MS;
  const now = options.now ?? Date.now;
  let puts = 0;
  const live = (entry: Entry | undefined): entry is Entry => entry !== undefined && now() - entry.at < ttl;
  return {
    get: (scope, logicalId) => {
      const entry = entryOf(map.get(entryKey(scope, logicalId)));
      return live(entry) ? entry.key : undefined;
    },
    put: (scope, logicalId, key) => {
      map.put(entryKey(scope, logicalId), { key, at: now() });
      if (++puts % SWEEP_EVERY !== 0) return;
      for (const [id, value] of [...map.entries()]) if (!live(entryOf(value))) map.delete(id);
    },
  };
}

/** A store that lives as long as the process (the runtime's default). */
export function memoryIdempotencyStore(options: IdempotencyStoreOptions = {}): IdempotencyStore {
  const keys = new Map<string, Entry>();
  return expiringStore({ get: (id) => keys.get(id), put: (id, entry) => void keys.set(id, entry), delete: (id) => void keys.delete(id), entries: () => keys.entries() }, options);
}

const PREFIX = 'idempotency/';

/**
 * A store in the kernel's database, through the plugin's own `PluginStore` (`ctx.store`): keys survive
 * a restart, so a call repeated after a crash carries the key of the first attempt.
 */
export function pluginStoreIdempotency(store: PluginStore, options: IdempotencyStoreOptions = {}): IdempotencyStore {
  return expiringStore(
    {
      get: (id) => store.get(PREFIX + id),
      put: (id, entry) => store.put(PREFIX + id, entry),
      delete: (id) => void store.delete(PREFIX + id),
      entries: () => store.list(PREFIX).map(({ key, value }) => [key.slice(PREFIX.length), value] as const),
    },
    options,
  );
}

/** JSON of the pair, so no choice of separator can make two pairs collide. */
function entryKey(scope: string, logicalId: string): string {
  return JSON.stringify([scope, logicalId]);
}
