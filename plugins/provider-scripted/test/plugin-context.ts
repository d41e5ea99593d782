import { type LogReader, type ModelMessage, type ModelRequest, type ModelStreamEvent, type ProviderFactory, type ToolCall } from '@nodwyn/plugin-api';
import { retryBudget } from '@nodwyn/plugin-api/transport';
import { providerScriptedPlugin } from '../src/index.js';
import { registeredProviders } from '@nodwyn/testing';

/** Runs the plugin's `register` against a context that only records provider factories. */
export function registerProviders(log: LogReader = { read: () => [], signed: () => undefined, sessions: () => [] }): Promise<Map<string, ProviderFactory>> {
  return registeredProviders(providerScriptedPlugin, { log });
}

/** The factory registered under `id`; fails the test when there is none. */
export async function factory(id: string, log?: LogReader): Promise<ProviderFactory> {
  const found = (await registerProviders(log)).get(id);
  if (!found) throw new Error(`no provider factory ${id} was registered`);
  return found;
}

/** A request with the given window and no tools. */
export function request(...messages: ModelMessage[]): ModelRequest {
  return { session: 'session-under-test', messages, tools: [], fetch: () => Promise.reject(new Error('the scripted provider sends no requests')), retries: retryBudget(0) };
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
