import { afterEach, describe, expect, it } from 'vitest';
import { checkedClient, failureOf, json, serve, type TestServer } from '../../test/operation-server.js';
import { directOperationFetch } from './operation-fetch.js';
import type { OperationDescriptor } from './operation-types.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Two events after the request's Last-Event-ID, the second `gapMs` after the first; busy once when asked. */
async function events(busyFirst: boolean, gapMs = 50): Promise<TestServer> {
  const api = await serve((hit, response) => {
    if (busyFirst && api.hits.length === 1) return json(response, 503, {}, { 'retry-after': '0' });
    if (hit.url.startsWith('/plain')) return json(response, 200, { not: 'a stream' });
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    const from = Number(hit.headers['last-event-id'] ?? 0);
    response.write(`id: ${from + 1}\ndata: {"n":${from + 1}}\n\n`);
    setTimeout(() => response.end(`id: ${from + 2}\ndata: {"n":${from + 2}}\n\n`), gapMs);
    return undefined;
  });
  servers.push(api);
  return api;
}

const watch = (base: string, path = 'events'): OperationDescriptor => ({ id: 'acme.watch', method: 'GET', url: `${base}/${path}`, params: [], tier: 'read', stream: { done: '[DONE]' } });

describe('open', () => {
  it('retries before the first byte, then hands the event stream over unread, past the attempt timeout', async () => {
    const api = await events(true, 1500);
    const client = checkedClient({ operations: [watch(api.url)], fetch: directOperationFetch, timeoutMs: 1000 });
    const opened = await client.open('acme.watch', {});
    expect(opened).toMatchObject({ ok: true, status: 200, attempts: 2 });
    const text = opened.ok ? await opened.response.text() : '';
    expect(text).toBe('id: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\n');
    expect(api.hits[1]?.headers.accept).toBe('text/event-stream');
  });

  it('sends Last-Event-ID when resuming', async () => {
    const api = await events(false);
    const opened = await checkedClient({ operations: [watch(api.url)], fetch: directOperationFetch }).open('acme.watch', {}, { lastEventId: '7' });
    expect(opened.ok && (await opened.response.text())).toContain('id: 8\n');
    expect(api.hits[0]?.headers['last-event-id']).toBe('7');
  });

  it('refuses a success that is not an event stream', async () => {
    const api = await events(false);
    const opened = await checkedClient({ operations: [watch(api.url, 'plain')], fetch: directOperationFetch }).open('acme.watch', {});
    expect(failureOf(opened)).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'RESPONSE_INVALID', http_status: 200 });
  });

  it('holds a destructive stream to the confirmation rule', async () => {
    const api = await events(false);
    const purge = { ...watch(api.url), id: 'acme.purge', method: 'POST', tier: 'destructive' as const };
    const client = checkedClient({ operations: [purge], fetch: directOperationFetch });
    expect(failureOf(await client.open('acme.purge', {})).code).toBe('CONFIRMATION_TOKEN_REQUIRED');
    expect(api.hits).toHaveLength(0);
  });
});
