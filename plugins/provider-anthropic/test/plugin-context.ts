import { retryBudget, type ModelMessage, type ModelRequest, type ModelStreamEvent, type PluginContext, type ProviderFactory, type ToolSpec } from '@nodwyn/plugin-api';
import { providerAnthropicPlugin } from '../src/index.js';

function notUsed(what: string): never {
  throw new Error(`${what} is not used by provider-anthropic`);
}

/** Runs the plugin's `register` against a context that only records provider factories, and returns `anthropic`. */
export async function anthropicFactory(settings: Readonly<Record<string, unknown>> = {}): Promise<ProviderFactory> {
  const found = new Map<string, ProviderFactory>();
  const context: PluginContext = {
    plugin: { name: providerAnthropicPlugin.manifest.name, version: providerAnthropicPlugin.manifest.version },
    config: {},
    settings,
    workspace: '/nonexistent-workspace',
    dataDir: '/nonexistent-data',
    log: { read: () => notUsed('log.read'), sessions: () => notUsed('log.sessions') },
    primitives: { register: () => notUsed('primitives.register'), list: () => notUsed('primitives.list') },
    providers: { register: (factory) => void found.set(factory.id, factory) },
    models: { complete: () => notUsed('models.complete') },
    loops: { register: () => notUsed('loops.register') },
    guard: { addStage: () => notUsed('guard.addStage') },
    commands: { register: () => notUsed('commands.register') },
    events: { append: () => notUsed('events.append') },
    services: { provide: () => notUsed('services.provide'), get: () => notUsed('services.get') },
  };
  await providerAnthropicPlugin.register(context);
  const factory = found.get('anthropic');
  if (!factory) throw new Error('provider-anthropic registered no `anthropic` factory');
  return factory;
}

export const READ_FILE: ToolSpec = {
  name: 'read_file',
  description: 'Reads a file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

/** A request with the given window, one tool, `fetch` and no retries unless given. */
export function request(messages: readonly ModelMessage[], fetch: ModelRequest['fetch'] = globalThis.fetch.bind(globalThis), retries = 0): ModelRequest {
  return { session: 'session-under-test', messages, tools: [READ_FILE], fetch, retries: retryBudget(retries) };
}

/** Drains a stream, keeping what arrived and what it failed with. */
export async function drain(stream: AsyncIterable<ModelStreamEvent>): Promise<{ events: ModelStreamEvent[]; error?: unknown }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    return { events, error };
  }
}
