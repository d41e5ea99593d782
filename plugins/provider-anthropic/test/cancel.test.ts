import { isEnvelopeError } from '@nodwyn/plugin-api';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicFactory, request } from './plugin-context.js';
import { startSseServer, textAnswer, type SseServer } from './sse-server.js';

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Waits for `promise`, failing after `ms` instead of hanging the test. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('cancel', () => {
  it('aborts the HTTP request of a stream held open: CANCELLED, and the server sees the connection close', async () => {
    server = await startSseServer([{ events: textAnswer(['first']), hang: true }]);
    const provider = await (await anthropicFactory()).create({ base_url: server.url, model: 'claude-haiku-4-5' });
    const controller = new AbortController();
    const seen: string[] = [];
    let failure: unknown;
    try {
      for await (const event of provider.stream(request([{ role: 'user', text: 'hi' }]), controller.signal)) {
        seen.push(event.type);
        if (event.type === 'text') controller.abort();
      }
    } catch (error) {
      failure = error;
    }
    expect(isEnvelopeError(failure) && [failure.envelope.category, failure.envelope.code]).toEqual(['CANCELLED', 'CANCELLED']);
    expect(seen).toEqual(['text']);
    expect(await within(server.requests[0]!.closedEarly, 5_000)).toBe(true);
  });

  it('aborts a request still waiting for the answer to begin', async () => {
    server = await startSseServer([{ events: [], silent: true }]);
    const provider = await (await anthropicFactory()).create({ base_url: server.url, model: 'claude-haiku-4-5' });
    const controller = new AbortController();
    const iterator = provider.stream(request([{ role: 'user', text: 'hi' }]), controller.signal)[Symbol.asyncIterator]();
    const next = iterator.next();
    for (let i = 0; i < 1000 && server.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const failure = await next.then(() => undefined, (error: unknown) => error);
    expect(isEnvelopeError(failure) && failure.envelope.category).toBe('CANCELLED');
    expect(await within(server.requests[0]!.closedEarly, 5_000)).toBe(true);
  });
});
