import { packageEntry, type Distribution, type DistributionEntry } from '@nodwyn/plugin-host';
import type { Config } from './config.js';

/**
 * The default distribution: every first-party plugin this release ships, plus the third-party plugins
 * the user's config names (`[[distribution.plugins]]`), resolved by package name from `resolveFrom` (the
 * config folder, where the user installs them).
 */
export function defaultDistribution(config: Config, resolveFrom: string): Distribution {
  const firstParty: DistributionEntry[] = [
    { package: '@nodwyn/plugin-tools-core', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-tools-core')).toolsCorePlugin },
    { package: '@nodwyn/plugin-loop-default', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-loop-default')).loopDefaultPlugin },
    // The security layers are required: nodwyn does not run with a text layer or the egress edge missing.
    { package: '@nodwyn/plugin-keychain', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-keychain')).keychainPlugin },
    { package: '@nodwyn/plugin-redact-l1', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-redact-l1')).redactL1Plugin },
    { package: '@nodwyn/plugin-redact-l2', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-redact-l2')).redactL2Plugin },
    { package: '@nodwyn/plugin-egress', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-egress')).egressPlugin },
    // Required too: a broken [judge] section must stop the run, not silently drop the judge.
    { package: '@nodwyn/plugin-judge', range: '^0.1.0', load: async () => (await import('@nodwyn/plugin-judge')).judgePlugin },
    {
      package: '@nodwyn/plugin-provider-anthropic',
      range: '^0.1.0',
      optional: true,
      load: async () => (await import('@nodwyn/plugin-provider-anthropic')).providerAnthropicPlugin,
    },
    {
      package: '@nodwyn/plugin-provider-openai',
      range: '^0.1.0',
      optional: true,
      load: async () => (await import('@nodwyn/plugin-provider-openai')).providerOpenAiPlugin,
    },
    {
      package: '@nodwyn/plugin-provider-scripted',
      range: '^0.1.0',
      optional: true,
      load: async () => (await import('@nodwyn/plugin-provider-scripted')).providerScriptedPlugin,
    },
  ];
  const extra = (config.distribution?.plugins ?? []).map((p) => packageEntry({ package: p.package, range: p.range, from: resolveFrom, optional: p.optional ?? true }));
  return { name: 'nodwyn-default', plugins: [...firstParty, ...extra] };
}
