import { isEnvelopeError } from '@nodwyn/plugin-api';
import { afterEach, describe, expect, it } from 'vitest';
import { chatEvent, startLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { drain, factory, request } from './plugin-context.js';

const MAX_CHUNKS = 200;

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server whose socket closing is observable; `sendHeaders` false holds the answer back entirely. */
async function heldStream(sendHeaders: boolean): Promise<{ closed: Promise<number> }> {
  let resolveClosed!: (written: number) => void;
  const closed = new Promise<number>((resolve) => (resolveClosed = resolve));
  server = await startLoopbackServer((req, res) => {
    let written = 0;
    let timer: NodeJS.Timeout | undefined;
    req.socket.on('close', () => {
      clearInterval(timer);
      resolveClosed(written);
    });
    if (!sendHeaders) return;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chatEvent({ role: 'assistant', content: 'first ' }));
    // A bounded trickle: the stream would last 10 s, far longer than the test waits for the cancel.
    timer = setInterval(() => {
      written += 1;
      if (written >= MAX_CHUNKS) clearInterval(timer);
      else res.write(chatEvent({ content: `${written} ` }));
    }, 50);
  });
  return { closed };
}

function cancelled(error: unknown): boolean {
  return isEnvelopeError(error) && error.envelope.category === 'CANCELLED';
}

describe('cancel', () => {
  it('aborts the HTTP request mid-stream: the server sees its socket close, and the call ends CANCELLED', async () => {
    const { closed } = await heldStream(true);
    const provider = await (await factory('openai-compatible')).create({ base_url: server!.url, model: 'm' });
    const controller = new AbortController();
    const events = provider.stream(request([{ role: 'user', text: 'hi' }]), controller.signal);
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const event of events) {
        if (event.type === 'text') {
          seen.push(event.text);
          controller.abort();
        }
      }
    } catch (caught) {
      error = caught;
    }
    expect(cancelled(error)).toBe(true);
    expect(seen[0]).toBe('first ');
    expect(await closed).toBeLessThan(MAX_CHUNKS);
    expect(server!.count()).toBe(1);
  });

  it('aborts a request still waiting for its answer, without a retry', async () => {
    const { closed } = await heldStream(false);
    const provider = await (await factory('openai-compatible')).create({ base_url: server!.url, model: 'm', api: 'responses' });
    const controller = new AbortController();
    const pending = drain(provider.stream(request([{ role: 'user', text: 'hi' }], undefined, 5), controller.signal));
    while (server!.count() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const outcome = await pending;
    expect(cancelled(outcome.error)).toBe(true);
    expect(outcome.events).toEqual([]);
    await closed;
    expect(server!.count()).toBe(1);
  });
});
