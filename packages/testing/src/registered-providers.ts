import type { LogReader, PluginDefinition, ProviderFactory } from '@nodwyn/plugin-api';
import { pluginContextFor } from './plugin-context-for.js';

/**
 * Runs a provider plugin's `register` against a context that records provider factories and refuses
 * everything else, for unit tests of a provider without a kernel. `log` is for providers that read it
 * (the replay provider); `settings` is the user configuration the plugin sees.
 */
export async function registeredProviders(
  plugin: PluginDefinition,
  options: { settings?: Readonly<Record<string, unknown>>; log?: LogReader } = {},
): Promise<Map<string, ProviderFactory>> {
  const found = new Map<string, ProviderFactory>();
  const context = pluginContextFor(plugin, {
    settings: options.settings ?? {},
    ...(options.log ? { log: options.log } : {}),
    providers: { register: (factory) => void found.set(factory.id, factory) },
  });
  // No host resolves deps here: a provider that declares some belongs in startTestKernel.
  await plugin.register(context, {});
  return found;
}
