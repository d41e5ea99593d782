import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, serve, type TestServer } from '../../test/operation-server.js';
import { exchange } from './operation-exchange.js';
import { directOperationFetch } from './operation-fetch.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const post = (url: string, headers: [string, string][] = []) => ({ method: 'POST', url, headers, body: '{"name":"rex"}' });
const never = () => new AbortController().signal;

async function http(handler: Parameters<typeof serve>[0]): Promise<TestServer> {
  const server = await serve(handler);
  closers.push(() => server.close());
  return server;
}

/** A raw TCP server: `onConnection` decides what the socket does. */
async function tcp(onConnection: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('exchange: was the request written?', () => {
  it('reads a refused connection (undici ECONNREFUSED) as not written', async () => {
    const ended = await exchange(directOperationFetch, post(`http://127.0.0.1:${await closedPort()}/`), { read: false, signal: never(), timeoutMs: 10_000, maxBytes: 1 << 20 });
    expect(ended).toMatchObject({ kind: 'failed', written: false });
    expect(ended.kind === 'failed' && ended.reason).toContain('ECONNREFUSED');
  });

  it('reads a socket the server closed after reading the whole request (UND_ERR_SOCKET) as written', async () => {
    const server = await http((_hit, _response, request) => request.socket.destroy());
    const ended = await exchange(directOperationFetch, post(`${server.url}/`), { read: false, signal: never(), timeoutMs: 10_000, maxBytes: 1 << 20 });
    expect(ended).toMatchObject({ kind: 'failed', written: true });
    expect(ended.kind === 'failed' && ended.reason).toMatch(/UND_ERR_SOCKET|ECONNRESET/);
    expect(server.hits).toHaveLength(1);
  });

  it('reads a reset (RST) after the request bytes arrived as written', async () => {
    let received = 0;
    const url = await tcp((socket) => {
      socket.on('data', (chunk) => {
        received += chunk.length;
        if (chunk.includes('rex')) socket.resetAndDestroy();
      });
    });
    const ended = await exchange(directOperationFetch, post(url), { read: false, signal: never(), timeoutMs: 10_000, maxBytes: 1 << 20 });
    expect(ended).toMatchObject({ kind: 'failed', written: true });
    expect(received).toBeGreaterThan(0);
  });

  it('cannot tell a connection closed on accept from one closed after reading, so it says written', async () => {
    const url = await tcp((socket) => socket.destroy());
    const ended = await exchange(directOperationFetch, post(url), { read: false, signal: never(), timeoutMs: 10_000, maxBytes: 1 << 20 });
    expect(ended).toMatchObject({ kind: 'failed', written: true });
  });

  it('reads a request fetch refuses to build (a header value with a line break) as not written', async () => {
    const ended = await exchange(directOperationFetch, post('http://127.0.0.1:9/', [['x-a', 'a\nb']]), { read: false, signal: never(), timeoutMs: 10_000, maxBytes: 1 << 20 });
    expect(ended).toMatchObject({ kind: 'failed', written: false });
  });

  it('reads a body that breaks off after a success status as body-lost', async () => {
    const server = await http((_hit, response, request) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"id":');
      setTimeout(() => request.socket.destroy(), 20);
    });
    const ended = await exchange(directOperationFetch, post(`${server.url}/`), { read: false, signal: never(), timeoutMs: 10_000, maxBytes: 1 << 20 });
    expect(ended).toMatchObject({ kind: 'body-lost', status: 200 });
  });

  it('tells the deadline from the caller cancelling', async () => {
    const server = await http(() => undefined);
    expect(await exchange(directOperationFetch, post(`${server.url}/`), { read: true, signal: never(), timeoutMs: 50, maxBytes: 1 << 20 })).toEqual({ kind: 'timeout' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await exchange(directOperationFetch, post(`${server.url}/`), { read: true, signal: controller.signal, timeoutMs: 10_000, maxBytes: 1 << 20 })).toEqual({ kind: 'cancelled' });
  });
});
