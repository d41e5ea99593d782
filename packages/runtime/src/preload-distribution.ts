import { ManifestSchema, type PluginDefinition } from '@nodwyn/plugin-api';
import type { Distribution, DistributionEntry } from '@nodwyn/plugin-host';
import type { UserOnlyPlugins } from './repo-config.js';

/** A distribution whose plugins were loaded once, and what their manifests say about configuration. */
export interface PreloadedDistribution {
  /** The same distribution; each entry's `load` hands back what the first load gave (definition or failure). */
  readonly distribution: Distribution;
  /** The packages whose manifest says `userOnlyConfig`. */
  readonly userOnly: UserOnlyPlugins;
}

type Outcome = { readonly ok: true; readonly value: PluginDefinition } | { readonly ok: false; readonly error: unknown };

/**
 * Loads every entry of `distribution` once, before any configuration is merged: which plugin sections a
 * repository may not set is each plugin's own declaration (`userOnlyConfig`), so the manifests must be
 * read first. The entries handed on return exactly what was read here, so the manifest that decided the
 * merge is the manifest of the plugin that runs, and no module is imported twice. A disabled entry is
 * left alone, never imported (its module may have side effects the person turned off); a failed load is
 * kept, to fail the same way in the host, which reports it.
 */
export async function preloadDistribution(distribution: Distribution, disabled: readonly string[]): Promise<PreloadedDistribution> {
  const userOnly = new Set<string>();
  const plugins = await Promise.all(
    distribution.plugins.map(async (entry): Promise<DistributionEntry> => {
      if (disabled.includes(entry.package)) return entry;
      const outcome = await settle(entry);
      if (outcome.ok && ManifestSchema.safeParse(outcome.value?.manifest).data?.userOnlyConfig === true) userOnly.add(entry.package);
      return { ...entry, load: () => (outcome.ok ? outcome.value : Promise.reject(outcome.error)) };
    }),
  );
  return { distribution: { ...distribution, plugins }, userOnly };
}

async function settle(entry: DistributionEntry): Promise<Outcome> {
  try {
    return { ok: true, value: await entry.load() };
  } catch (error) {
    return { ok: false, error };
  }
}
