import { afterEach, describe, expect, it } from 'vitest';
import { isEnvelopeError, type ModelRequest, type ProviderFactory } from '@nodwyn/plugin-api';
import { memoryKernel } from '../../test/helpers.js';
import type { Kernel } from '../kernel.js';

let kernel: Kernel;
afterEach(() => kernel?.close());

/** A factory whose provider answers with the last user text reversed, or breaks mid-answer when asked to. */
function reverser(requests: ModelRequest[]): ProviderFactory {
  return {
    id: 'reverser',
    description: 'reverses the ask',
    create: (options) => ({
      id: 'reverser',
      model: options.model,
      price: { input: 1, output: 1 },
      async *stream(request) {
        requests.push(request);
        const ask = request.messages.at(-1)?.role === 'user' ? (request.messages.at(-1) as { text: string }).text : '';
        yield { type: 'text', text: [...ask].reverse().join('') };
        if (options.model === 'broken') throw new Error('connection reset');
        yield { type: 'usage', usage: { input: 1_000_000, output: 0 } };
        yield { type: 'stop', reason: 'end_turn' };
      },
    }),
  };
}

describe("a plugin's own model call", () => {
  it('creates the named provider, offers no tools, hands it a guarded fetch and logs nothing', async () => {
    kernel = memoryKernel();
    const requests: ModelRequest[] = [];
    kernel.providers.register('judge-test', reverser(requests));
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const before = kernel.log.read(session).length;
    const result = await kernel.complete({ session, provider: 'reverser', options: { model: 'm' }, messages: [{ role: 'user', text: 'abc' }], signal: new AbortController().signal });
    expect(result).toEqual({ text: 'cba', usage: { input: 1_000_000, output: 0 }, costUsd: 1 });
    expect(requests[0]!.tools).toEqual([]);
    expect(typeof requests[0]!.fetch).toBe('function');
    expect(kernel.log.read(session)).toHaveLength(before);
  });

  it('throws the envelope of a broken stream instead of returning half an answer', async () => {
    kernel = memoryKernel();
    kernel.providers.register('judge-test', reverser([]));
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const error = await kernel
      .complete({ session, provider: 'reverser', options: { model: 'broken' }, messages: [{ role: 'user', text: 'abc' }], signal: new AbortController().signal })
      .catch((e: unknown) => e);
    expect(isEnvelopeError(error) && error.envelope.code).toBe('PROVIDER_FAILED');
  });

  it('names an unknown provider in its envelope', async () => {
    kernel = memoryKernel();
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const error = await kernel.complete({ session, provider: 'nope', options: {}, messages: [], signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(isEnvelopeError(error) && error.envelope.category).toBe('NOT_FOUND');
  });
});
