import type { PluginContext, PluginDefinition } from '@nodwyn/plugin-api';

/**
 * A `PluginContext` for calling one plugin's `register` directly, without a host: what the test passes in
 * `overrides` works, and every other member throws "<member> is not used by <plugin>", so a plugin that
 * reaches for more than the test expects fails loudly.
 */
export function pluginContextFor(plugin: PluginDefinition, overrides: Partial<PluginContext> = {}): PluginContext {
  const name = plugin.manifest.name;
  const unused = (what: string): never => {
    throw new Error(`${what} is not used by ${name}`);
  };
  const defaults: Omit<PluginContext, 'store'> = {
    plugin: { name, version: plugin.manifest.version },
    config: {},
    settings: {},
    workspace: '/nonexistent-workspace',
    trust: 'none',
    dataDir: '/nonexistent-data',
    configDir: '/nonexistent-config',
    log: { read: () => unused('log.read'), signed: () => unused('log.signed'), sessions: () => unused('log.sessions') },
    primitives: { register: () => unused('primitives.register'), addSource: () => unused('primitives.addSource'), list: () => unused('primitives.list') },
    providers: { register: () => unused('providers.register') },
    models: { complete: () => unused('models.complete') },
    loops: { register: () => unused('loops.register') },
    guard: { addStage: () => unused('guard.addStage') },
    commands: { register: () => unused('commands.register') },
    frontends: { register: () => unused('frontends.register') },
    agentCommands: { register: () => unused('agentCommands.register') },
    context: { register: () => unused('context.register') },
    events: { append: () => unused('events.append') },
    calls: { session: () => unused('calls.session'), apply: () => unused('calls.apply') },
    services: { provide: () => unused('services.provide'), get: () => unused('services.get') },
  };
  const context = { ...defaults, ...overrides } as PluginContext;
  if (!('store' in overrides)) Object.defineProperty(context, 'store', { get: () => unused('store'), enumerable: true });
  return context;
}
