import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EnvelopeError, type PluginDefinition } from '@nodwyn/plugin-api';
import type { DistributionEntry } from './distribution.js';
import { hostEnvelopeInit } from './errors.js';
import { looksLikePlugin } from './manifest-check.js';

/** Where and how to find a third-party plugin package. */
export interface PackageEntryOptions {
  /** The package name, e.g. `@acme/nodwyn-plugin-jira`. */
  readonly package: string;
  /** Semver range its version must satisfy. */
  readonly range: string;
  /** Directory to resolve the package from, as Node would from a file in it (its `node_modules` and up). */
  readonly from: string;
  readonly optional?: boolean;
}

/** A distribution entry that imports a third-party plugin package when the host loads it. */
export function packageEntry(options: PackageEntryOptions): DistributionEntry {
  return {
    package: options.package,
    range: options.range,
    optional: options.optional,
    load: () => importPlugin(options.package, options.from),
  };
}

/**
 * Imports `packageName` as resolved from directory `from` and returns the plugin it exports. Resolution
 * uses `require.resolve` (Node's `require`/`default` export conditions), because Node 20 offers no way
 * to resolve an ESM specifier from an arbitrary directory; the resolved file is then loaded with
 * `import()`, so ESM plugins work.
 */
export async function importPlugin(packageName: string, from: string): Promise<PluginDefinition> {
  let resolved: string;
  try {
    // createRequire needs a file path; the file need not exist, only its directory matters.
    resolved = createRequire(join(from, 'noop.js')).resolve(packageName);
  } catch (error) {
    throw new EnvelopeError(
      hostEnvelopeInit('PLUGIN_NOT_FOUND', {
        plugin: packageName,
        operation: 'plugin.load',
        received_value: from,
        remediation: `Package ${packageName} cannot be resolved from ${from}; install it there (npm install ${packageName}) or fix the distribution.`,
      }),
      { cause: error },
    );
  }
  const namespace: Record<string, unknown> = await import(pathToFileURL(resolved).href);
  return pickPluginExport(namespace, packageName);
}

/**
 * Picks the plugin a module exports: its default export when that is a plugin, else its one named
 * export that is. Several candidates without a default are refused rather than guessed between.
 */
export function pickPluginExport(namespace: Record<string, unknown>, packageName: string): PluginDefinition {
  if (looksLikePlugin(namespace.default)) return namespace.default;
  const candidates = Object.entries(namespace).flatMap(([name, value]) => (looksLikePlugin(value) ? [{ name, plugin: value }] : []));
  if (candidates.length === 1 && candidates[0]) return candidates[0].plugin;
  const several = candidates.length > 1;
  throw new EnvelopeError(
    hostEnvelopeInit(several ? 'PLUGIN_EXPORT_AMBIGUOUS' : 'PLUGIN_EXPORT_MISSING', {
      plugin: packageName,
      operation: 'plugin.load',
      received_value: Object.keys(namespace),
      expected: 'a default export made with definePlugin(...)',
      remediation: several
        ? `${packageName} exports several plugins (${candidates.map((candidate) => candidate.name).join(', ')}); export the one to load as default.`
        : `${packageName} exports no plugin; export default definePlugin({ manifest, register }).`,
    }),
  );
}
