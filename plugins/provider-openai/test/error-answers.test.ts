import { EnvelopeError, isEnvelopeError } from '@nodwyn/plugin-api';
import { afterEach, describe, expect, it } from 'vitest';
import { chatAnswer, startLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { drain, factory, request } from './plugin-context.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FAST = { retry_base_ms: '1', retry_max_ms: '50' };

async function run(options: Record<string, string>, fetch?: Parameters<typeof request>[1]) {
  const provider = await (await factory('openai-compatible')).create({ model: 'm', ...FAST, ...options });
  const outcome = await drain(provider.stream(request([{ role: 'user', text: 'hi' }], fetch, 5), new AbortController().signal));
  if (!isEnvelopeError(outcome.error)) throw new Error(`expected an envelope error, got ${String(outcome.error)}`);
  return { events: outcome.events, envelope: outcome.error.envelope };
}

describe('error answers of OpenAI-compatible servers', () => {
  it('reads a vLLM top-level error body: context too long is VALIDATION_FAILED CONTEXT_TOO_LONG, not retried', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.", type: 'BadRequestError', param: null, code: 400 }));
    });
    const { envelope } = await run({ base_url: server.url });
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'CONTEXT_TOO_LONG', http_status: 400 });
    expect(server.count()).toBe(1);
  });

  it('retries a plain-text 502 from a proxy, then streams', async () => {
    server = await startLoopbackServer((_req, res) => {
      if (server!.count() === 1) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('Bad Gateway');
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(chatAnswer('ok'));
      }
    });
    const provider = await (await factory('openai-compatible')).create({ model: 'm', base_url: server.url, ...FAST });
    const outcome = await drain(provider.stream(request([{ role: 'user', text: 'hi' }], undefined, 5), new AbortController().signal));
    expect(outcome.error).toBeUndefined();
    expect(outcome.events.map((e) => e.type)).toEqual(['retry', 'text', 'usage', 'stop']);
    expect(server.count()).toBe(2);
  });

  it('fails a 200 that is not an event stream with UNEXPECTED_RESPONSE STREAM_NOT_SSE, once', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'chat.completion', choices: [{ message: { role: 'assistant', content: 'whole' } }] }));
    });
    const { envelope } = await run({ base_url: server.url });
    expect(envelope).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'STREAM_NOT_SSE', received_value: 'application/json' });
    expect(server.count()).toBe(1);
  });

  it('fails a refused connection with TRANSPORT_FAILED CONNECTION_FAILED after max_attempts', async () => {
    server = await startLoopbackServer(() => undefined);
    const url = server.url;
    await server.close();
    server = undefined;
    const { envelope, events } = await run({ base_url: url, max_attempts: '2' });
    expect(envelope).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'CONNECTION_FAILED', trace: { attempts: 2 } });
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
  });

  it('keeps the guarded fetch’s own envelope (an egress denial) and does not retry it', async () => {
    let calls = 0;
    const denied = new EnvelopeError({ category: 'PERMISSION_DENIED', code: 'GUARD_EGRESS_UNBOUND', remediation: 'bind the class' });
    const { envelope } = await run({ base_url: 'http://127.0.0.1:9/v1' }, async () => {
      calls += 1;
      throw denied;
    });
    expect(envelope).toMatchObject({ category: 'PERMISSION_DENIED', code: 'GUARD_EGRESS_UNBOUND', trace: { attempts: 1 } });
    expect(calls).toBe(1);
  });
});
