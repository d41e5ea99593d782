import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EnvelopeError, type PluginDefinition } from '@nodwyn/plugin-api';
import type { DistributionEntry } from './distribution.js';
import { hostEnvelopeInit } from './errors.js';
import { importFailure } from './import-failure.js';
import { looksLikePlugin } from './manifest-check.js';
import { findPackageFolder } from './package-folder.js';
import { EXPORT_CONDITION_SETS, exportConditions, exportedRoot, hasRootEntry } from './package-exports.js';

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
 * Imports `packageName` as resolved from directory `from` and returns the plugin it exports. Node 20
 * offers no way to resolve an ES module specifier from an arbitrary directory, so the package folder is
 * found as Node would find it, and its entry file is: the `.` entry of its `exports` map (the conditions
 * `import()` uses, then those `require` uses), else what `require.resolve` finds (`main`, `index.js`).
 * The file is then loaded with `import()`, so ESM plugins work. What fails names its cause: an `exports`
 * map with nothing loadable, a syntax error's file and line, a missing import.
 */
export async function importPlugin(packageName: string, from: string): Promise<PluginDefinition> {
  const { folder, entry } = resolvePlugin(packageName, from);
  let namespace: Record<string, unknown>;
  try {
    namespace = await import(pathToFileURL(entry).href);
  } catch (error) {
    throw await importFailure(error, packageName, entry, folder);
  }
  return pickPluginExport(namespace, packageName);
}

/**
 * The installed folder of plugin `packageName` and the file `importPlugin` loads, found from `from` as
 * it finds them; a package it could not load is the same envelope.
 */
export function resolvePlugin(packageName: string, from: string): { folder: string; entry: string } {
  const folder = findPackageFolder(packageName, from);
  const manifest = folder === undefined ? undefined : readPackageJson(folder);
  if (folder !== undefined && manifest?.exports !== undefined) return { folder, entry: exportedEntry(packageName, folder, manifest.exports) };
  try {
    // createRequire needs a file path; the file need not exist, only its directory matters.
    const entry = createRequire(join(from, 'noop.js')).resolve(packageName);
    return { folder: folder ?? dirname(entry), entry };
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
}

function exportedEntry(packageName: string, folder: string, exports: unknown): string {
  for (const conditions of EXPORT_CONDITION_SETS) {
    const target = exportedRoot(exports, conditions);
    if (target !== undefined && existsSync(join(folder, target))) return join(folder, target);
    if (target !== undefined) {
      throw new EnvelopeError(
        hostEnvelopeInit('PLUGIN_EXPORTS_UNUSABLE', {
          plugin: packageName,
          operation: 'plugin.load',
          failed_parameter: 'exports',
          received_value: target,
          remediation: `${packageName}'s package.json exports map names ${target}, which is not in ${folder}; build the plugin before packing or linking it, or fix the path.`,
        }),
      );
    }
  }
  const offered = exportConditions(exports);
  const why = hasRootEntry(exports) ? `conditions: ${offered.length > 0 ? offered.join(', ') : 'none'}` : 'no "." entry';
  throw new EnvelopeError(
    hostEnvelopeInit('PLUGIN_EXPORTS_UNUSABLE', {
      plugin: packageName,
      operation: 'plugin.load',
      failed_parameter: 'exports',
      received_value: exports,
      expected: 'a "." entry with an "import", "require" or "default" condition naming a ./ file',
      remediation: `${packageName}'s package.json exports map has no entry nodwyn can load (${why}); add "default" or "import" to its "." entry, e.g. "exports": { ".": { "import": "./dist/index.js" } }.`,
    }),
  );
}

function readPackageJson(folder: string): { exports?: unknown } | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as { exports?: unknown }) : undefined;
  } catch {
    // An unreadable package.json is Node's to report: require.resolve below fails with its own reason.
    return undefined;
  }
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
