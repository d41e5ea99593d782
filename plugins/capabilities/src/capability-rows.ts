import type { CapabilityVersion } from './capability.js';
import type { Registry } from './registry.js';

/** A capability's current version as a person's listings show it: `tampered` when its row fails the hash check. */
export type ListedCapability = Omit<CapabilityVersion, 'status'> & { readonly status: CapabilityVersion['status'] | 'tampered' };

/**
 * The current version of every capability, whatever its status, each checked against its hash: an edited
 * row is listed as `tampered` rather than hidden, so the person sees that something touched the database.
 */
export function capabilityRows(registry: Registry): ListedCapability[] {
  return registry.names().flatMap((name): ListedCapability[] => {
    const current = registry.peek(name);
    if (!current) return [];
    try {
      registry.current(name);
      return [current];
    } catch {
      return [{ ...current, status: 'tampered' }];
    }
  });
}
