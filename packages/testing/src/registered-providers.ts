import type { LogReader, PluginContext, PluginDefinition, ProviderFactory } from '@nodwyn/plugin-api';

/**
 * Runs a provider plugin's `register` against a context that records provider factories and refuses
 * everything else, for unit tests of a provider without a kernel. `log` is for providers that read it
 * (the replay provider); `settings` is the user configuration the plugin sees.
 */
export async function registeredProviders(
  plugin: PluginDefinition,
  options: { settings?: Readonly<Record<string, unknown>>; log?: LogReader } = {},
): Promise<Map<string, ProviderFactory>> {
  const notUsed = (what: string): never => {
    throw new Error(`${what} is not used by ${plugin.manifest.name}`);
  };
  const found = new Map<string, ProviderFactory>();
  const context: PluginContext = {
    plugin: { name: plugin.manifest.name, version: plugin.manifest.version },
    config: {},
    settings: options.settings ?? {},
    workspace: '/nonexistent-workspace',
    dataDir: '/nonexistent-data',
    log: options.log ?? { read: () => notUsed('log.read'), sessions: () => notUsed('log.sessions') },
    primitives: { register: () => notUsed('primitives.register'), addSource: () => notUsed('primitives.addSource'), list: () => notUsed('primitives.list') },
    providers: { register: (factory) => void found.set(factory.id, factory) },
    models: { complete: () => notUsed('models.complete') },
    loops: { register: () => notUsed('loops.register') },
    guard: { addStage: () => notUsed('guard.addStage') },
    commands: { register: () => notUsed('commands.register') },
    events: { append: () => notUsed('events.append') },
    calls: { session: () => notUsed('calls.session'), apply: () => notUsed('calls.apply') },
    get store(): never {
      return notUsed('store');
    },
    services: { provide: () => notUsed('services.provide'), get: () => notUsed('services.get') },
  };
  await plugin.register(context);
  return found;
}
