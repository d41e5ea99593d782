import OpenAI, { APIError, RateLimitError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { chatEvent, startLoopbackServer, type LoopbackServer } from './loopback-server.js';

// What the provider relies on in the official SDK, checked against a real socket.

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(url: string): OpenAI {
  return new OpenAI({ apiKey: 'none', baseURL: url, maxRetries: 0, logLevel: 'off', organization: null, project: null });
}

describe('openai SDK', () => {
  it('.asResponse() returns the raw event-stream Response as soon as headers arrive, body unread', async () => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chatEvent({ content: 'first' }));
      void finished.then(() => res.end(`${chatEvent({}, 'stop')}data: [DONE]\n\n`));
    });
    const response = await client(server.url).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true }).asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let first = '';
    for (let reads = 0; reads < 10 && !first.endsWith('\n\n'); reads++) first += decoder.decode((await reader.read()).value, { stream: true });
    // The server has not finished: what arrived is the first event, raw, not an SDK-parsed chunk.
    expect(first).toBe(chatEvent({ content: 'first' }));
    finish();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += decoder.decode(chunk.value, { stream: true });
    expect(rest).toContain('data: [DONE]');
  });

  it('throws an APIError carrying the status, the headers and the body’s `error` member, after one request', async () => {
    const error = { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' };
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'x-request-id': 'req_abc', 'retry-after-ms': '20' });
      res.end(JSON.stringify({ error }));
    });
    const thrown = await client(server.url)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true })
      .asResponse()
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RateLimitError);
    const apiError = thrown as APIError;
    expect([apiError.status, apiError.headers?.get('retry-after-ms'), apiError.requestID]).toEqual([429, '20', 'req_abc']);
    expect(apiError.error).toEqual(error);
    expect(server.count()).toBe(1);
  });

  it('keeps only the `error` member of a body: a vLLM-style top-level error is lost, which is why the provider keeps the body itself', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'error', message: "This model's maximum context length is 4096 tokens.", type: 'BadRequestError', code: 400 }));
    });
    const thrown = (await client(server.url)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true })
      .asResponse()
      .catch((e: unknown) => e)) as APIError;
    expect(thrown.status).toBe(400);
    expect(thrown.error).toBeUndefined();
  });
});
