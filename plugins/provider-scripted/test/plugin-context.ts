import { retryBudget, type LogReader, type ModelMessage, type ModelRequest, type ModelStreamEvent, type PluginContext, type ProviderFactory, type ToolCall } from '@nodwyn/plugin-api';
import { providerScriptedPlugin } from '../src/index.js';

function notUsed(what: string): never {
  throw new Error(`${what} is not used by provider-scripted`);
}

/** Runs the plugin's `register` against a context that only records provider factories. */
export async function registerProviders(log: LogReader = { read: () => [], sessions: () => [] }): Promise<Map<string, ProviderFactory>> {
  const factories = new Map<string, ProviderFactory>();
  const context: PluginContext = {
    plugin: { name: providerScriptedPlugin.manifest.name, version: providerScriptedPlugin.manifest.version },
    config: {},
    settings: {},
    workspace: '/nonexistent-workspace',
    dataDir: '/nonexistent-data',
    log,
    primitives: { register: () => notUsed('primitives.register'), list: () => notUsed('primitives.list') },
    providers: { register: (factory) => void factories.set(factory.id, factory) },
    models: { complete: () => notUsed('models.complete') },
    loops: { register: () => notUsed('loops.register') },
    guard: { addStage: () => notUsed('guard.addStage') },
    commands: { register: () => notUsed('commands.register') },
    events: { append: () => notUsed('events.append') },
    services: { provide: () => notUsed('services.provide'), get: () => notUsed('services.get') },
  };
  await providerScriptedPlugin.register(context);
  return factories;
}

/** The factory registered under `id`; fails the test when there is none. */
export async function factory(id: string, log?: LogReader): Promise<ProviderFactory> {
  const found = (await registerProviders(log)).get(id);
  if (!found) throw new Error(`no provider factory ${id} was registered`);
  return found;
}

/** A request with the given window and no tools. */
export function request(...messages: ModelMessage[]): ModelRequest {
  return { session: 'session-under-test', messages, tools: [], fetch: () => notUsed('fetch'), retries: retryBudget(0) };
}

/** Drains a stream into an array. */
export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Awaits `promise` and returns what it was rejected with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** Shorthands for window messages. */
export const user = (text: string): ModelMessage => ({ role: 'user', text });
export const assistant = (text: string, toolCalls: readonly ToolCall[] = []): ModelMessage => ({ role: 'assistant', text, toolCalls });
export const tool = (text: string, callId = 'call_0_0'): ModelMessage => ({ role: 'tool', callId, name: 'read_file', text, isError: false });
