import { pickPluginExport, type Distribution, type DistributionEntry } from '@nodwyn/plugin-host';
import { PluginLedger, pluginLedgerPath, thirdPartyEntry, type Config, type DistributionSource, type PluginFailure, type ThirdPartyOptions } from '@nodwyn/runtime';
import type { DistFile } from './dist-file.js';
import type { BakedPlugin } from './embedded-distribution.js';
import { bundledEntry, FIRST_PARTY, REQUIRED_SECURITY } from './first-party.js';
import { DEFAULT_FRONTEND, FRONTEND_PACKAGES } from './frontend-packages.js';

export { DEFAULT_FRONTEND, DESKTOP_PACKAGE, TUI_PACKAGE, WEB_PACKAGE } from './frontend-packages.js';

/** Makes the entry of a third-party plugin: where to find it, and whether it may run (the trust ledger). */
export type ThirdPartyGate = (options: ThirdPartyOptions) => DistributionEntry;

/**
 * The gate of the plugin trust ledger in `env`'s data folder: a third-party plugin loads only while its
 * files hash to what the person approved; each one that does not is told to `notice`. The ledger is
 * read on the first third-party plugin, so a distribution without any never touches it.
 */
export function ledgerGate(env: NodeJS.ProcessEnv, notice: (failure: PluginFailure) => void): ThirdPartyGate {
  let ledger: PluginLedger | undefined;
  return (options) => thirdPartyEntry(options, (ledger ??= PluginLedger.open(pluginLedgerPath(env))), notice);
}

/**
 * The gate of a `nodwyn dist build` bundle: a plugin baked into it loads its bundled copy, checked
 * against its range by the host like any other; any other third-party plugin goes through `fallback`.
 */
export function bakedGate(baked: Readonly<Record<string, BakedPlugin>>, fallback: ThirdPartyGate): ThirdPartyGate {
  return (options) => {
    const plugin = baked[options.package];
    if (!plugin) return fallback(options);
    const load = async () => {
      (await import('./host-plugin-api.js')).shareHostPluginApi();
      return pickPluginExport(await plugin.load(), options.package);
    };
    return { package: options.package, range: options.range, optional: options.optional ?? true, load };
  };
}

/**
 * The default distribution: every first-party plugin this release ships, plus the third-party plugins
 * the user's config names (`[[distribution.plugins]]`), resolved by package name from `resolveFrom` (the
 * config folder, where the user installs them) and gated by the trust ledger. Its default front end is
 * `[distribution] frontend`, else the terminal one.
 */
export function defaultDistribution(config: Config, resolveFrom: string, gate: ThirdPartyGate = ledgerGate(process.env, () => undefined)): Distribution {
  return {
    name: 'nodwyn-default',
    plugins: [...FIRST_PARTY, ...configPlugins(config, [resolveFrom], gate, new Set())],
    defaultFrontend: config.distribution?.frontend ?? DEFAULT_FRONTEND,
    frontendPackages: FRONTEND_PACKAGES,
  };
}

/**
 * The distribution a file describes (docs/plugin-authoring.md, "Distribution files"). A first-party
 * package it names is the CLI's bundled copy; any other resolves from the file's folder, then the config
 * folder, and runs only once approved. The required security plugins are added (and kept required)
 * unless the file is a test distribution. The person's own `[[distribution.plugins]]` come on top.
 */
export function fileDistribution(file: DistFile, gate: ThirdPartyGate): DistributionSource {
  return (config, root) => {
    const security = new Set(file.unsafeTest ? [] : REQUIRED_SECURITY);
    const named = file.plugins.map((p): DistributionEntry => {
      const optional = security.has(p.package) ? false : (p.optional ?? false);
      const bundled = bundledEntry(p.package);
      return bundled ? { ...bundled, range: p.range, optional } : gate({ package: p.package, range: p.range, optional, from: [file.dir, root] });
    });
    const added = [...security].filter((name) => !named.some((entry) => entry.package === name)).map((name) => ({ ...bundledEntry(name)!, optional: false }));
    const plugins = [...added, ...named];
    return {
      name: file.name,
      plugins: [...plugins, ...configPlugins(config, [root], gate, new Set(plugins.map((p) => p.package)))],
      defaultFrontend: config.distribution?.frontend ?? file.frontend ?? DEFAULT_FRONTEND,
      frontendPackages: FRONTEND_PACKAGES,
    };
  };
}

function configPlugins(config: Config, from: readonly string[], gate: ThirdPartyGate, taken: ReadonlySet<string>): DistributionEntry[] {
  return (config.distribution?.plugins ?? []).filter((p) => !taken.has(p.package)).map((p) => gate({ package: p.package, range: p.range, optional: p.optional ?? true, from }));
}
