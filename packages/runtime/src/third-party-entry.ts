import { findPackageFolder, packageEntry, type DistributionEntry } from '@nodwyn/plugin-host';
import { runtimeError } from './errors.js';
import { describeChanges, pluginChanges, type PluginLedger } from './plugin-ledger.js';
import { installedPlugin, type InstalledPlugin } from './plugin-files.js';
import type { PluginFailure } from './plugin-failure.js';

/** A third-party plugin a distribution names, and where to look for it. */
export interface ThirdPartyOptions {
  readonly package: string;
  readonly range: string;
  readonly optional?: boolean;
  /** Folders to resolve it from, in order (a distribution file's folder, then the config folder). */
  readonly from: readonly string[];
}

/** Where a third-party plugin was found, and whether the ledger lets it run. */
export interface LocatedPlugin {
  readonly installed: InstalledPlugin;
  /** The folder it resolves from (one of `from`). */
  readonly resolveFrom: string;
}

/** The first of `from` that `name` resolves from, with its files read; undefined when none has it. */
export function locatePlugin(name: string, from: readonly string[]): LocatedPlugin | undefined {
  for (const dir of from) {
    const folder = findPackageFolder(name, dir);
    if (folder) return { installed: installedPlugin(name, folder), resolveFrom: dir };
  }
  return undefined;
}

/**
 * The distribution entry of a third-party plugin, gated by the trust ledger: it is imported only when
 * its installed files hash to what the person approved. Otherwise its load fails with PLUGIN_UNAPPROVED
 * (nothing of it is imported) and `notice` is told so, with how to approve it. The check runs when the
 * distribution is made, before any plugin loads, so even a command that boots no workspace says so.
 */
export function thirdPartyEntry(options: ThirdPartyOptions, ledger: PluginLedger, notice: (failure: PluginFailure) => void): DistributionEntry {
  const optional = options.optional ?? true;
  const located = locatePlugin(options.package, options.from);
  // Not installed: the host's own loader reports where it looked (PLUGIN_NOT_FOUND).
  if (!located) return packageEntry({ package: options.package, range: options.range, from: options.from[0] ?? '.', optional });
  const { installed } = located;
  const status = ledger.status(installed);
  if (status === 'approved') return packageEntry({ package: options.package, range: options.range, from: located.resolveFrom, optional });
  const approval = ledger.get(options.package);
  const why = status === 'changed' && approval ? `changed since you approved it (${describeChanges(pluginChanges(approval, installed))})` : 'not approved';
  const remediation = `Third-party plugin ${options.package} ${installed.version} (${installed.folder}) is ${why}; review it and run \`nodwyn plugins approve ${options.package}\`.`;
  notice({ plugin: options.package, code: 'PLUGIN_UNAPPROVED', remediation });
  return {
    package: options.package,
    range: options.range,
    optional,
    load: () => {
      throw runtimeError('PLUGIN_UNAPPROVED', { operation: 'plugin.load', plugin: options.package, received_value: installed.hash, remediation });
    },
  };
}
