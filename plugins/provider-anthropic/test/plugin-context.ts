import { type ModelMessage, type ModelRequest, type ProviderFactory, type ToolSpec } from '@nodwyn/plugin-api';
import { retryBudget } from '@nodwyn/plugin-api/transport';
import { providerAnthropicPlugin } from '../src/index.js';
import { registeredProviders } from '@nodwyn/testing';

/** Runs the plugin's `register` against a context that only records provider factories, and returns `anthropic`. */
export async function anthropicFactory(settings: Readonly<Record<string, unknown>> = {}): Promise<ProviderFactory> {
  const factory = (await registeredProviders(providerAnthropicPlugin, { settings })).get('anthropic');
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
export { drainStream as drain } from '@nodwyn/testing';
