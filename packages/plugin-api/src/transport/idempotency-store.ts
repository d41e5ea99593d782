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

/** A store that lives as long as the process (the runtime's default). */
export function memoryIdempotencyStore(): IdempotencyStore {
  const keys = new Map<string, string>();
  return {
    get: (scope, logicalId) => keys.get(entryKey(scope, logicalId)),
    put: (scope, logicalId, key) => {
      keys.set(entryKey(scope, logicalId), key);
    },
  };
}

const PREFIX = 'idempotency/';

/**
 * A store in the kernel's database, through the plugin's own `PluginStore` (`ctx.store`): keys survive
 * a restart, so a call repeated after a crash carries the key of the first attempt.
 */
export function pluginStoreIdempotency(store: PluginStore): IdempotencyStore {
  return {
    get: (scope, logicalId) => {
      const value = store.get(PREFIX + entryKey(scope, logicalId));
      return typeof value === 'string' ? value : undefined;
    },
    put: (scope, logicalId, key) => store.put(PREFIX + entryKey(scope, logicalId), key),
  };
}

/** JSON of the pair, so no choice of separator can make two pairs collide. */
function entryKey(scope: string, logicalId: string): string {
  return JSON.stringify([scope, logicalId]);
}
