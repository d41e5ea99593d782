import { type ModelMessage, type ModelRequest, type ProviderFactory, type ToolSpec } from '@nodwyn/plugin-api';
import { retryBudget } from '@nodwyn/plugin-api/transport';
import { providerOpenAiPlugin } from '../src/index.js';
import { registeredProviders } from '@nodwyn/testing';

/** Runs the plugin's `register` against a context that only records provider factories. */
export function factories(settings: Readonly<Record<string, unknown>> = {}): Promise<Map<string, ProviderFactory>> {
  return registeredProviders(providerOpenAiPlugin, { settings });
}

/** The factory registered under `id`; fails the test when there is none. */
export async function factory(id: 'openai' | 'openai-compatible', settings?: Readonly<Record<string, unknown>>): Promise<ProviderFactory> {
  const found = (await factories(settings)).get(id);
  if (!found) throw new Error(`no provider factory ${id} was registered`);
  return found;
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
export { drainStream as drain } from '@nodwyn/testing';

/** Awaits `promise` and returns what it was rejected with; fails when it resolves. */
export async function rejection(promise: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, but it succeeded');
}
