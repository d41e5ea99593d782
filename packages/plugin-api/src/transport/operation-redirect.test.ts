import { afterEach, describe, expect, it } from 'vitest';
import { checkedClient, failureOf, json, serve, type TestServer } from '../../test/operation-server.js';
import { directOperationFetch } from './operation-fetch.js';
import type { OperationDescriptor } from './operation-types.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(handler: Parameters<typeof serve>[0]): Promise<TestServer> {
  const started = await serve(handler);
  servers.push(started);
  return started;
}

function redirect(response: import('node:http').ServerResponse, status: number, location: string): void {
  response.writeHead(status, { location });
  response.end();
}

const operation = (base: string, method: string, tier: OperationDescriptor['tier']): OperationDescriptor => ({
  id: `acme.${method.toLowerCase()}`,
  method,
  url: `${base}/{path}`,
  params: [{ name: 'path', in: 'path', required: true }],
  tier,
});

const auth = { headers: () => Promise.resolve([['Authorization', 'Bearer t0ken']] as const) };

describe('redirects', () => {
  it('follows a same-origin redirect on a read, credentials kept', async () => {
    const api = await server((hit, response) => (hit.url === '/old' ? redirect(response, 301, '/new') : json(response, 200, { at: hit.url })));
    const ops = checkedClient({ operations: [operation(api.url, 'GET', 'read')], fetch: directOperationFetch, auth });
    expect(await ops.call('acme.get', { path: 'old' })).toMatchObject({ ok: true, value: { at: '/new' } });
    expect(api.hits.map((hit) => hit.headers.authorization)).toEqual(['Bearer t0ken', 'Bearer t0ken']);
  });

  it('does not follow a cross-origin redirect on a read, so the credential never reaches the other origin', async () => {
    const other = await server((_hit, response) => json(response, 200, {}));
    const api = await server((_hit, response) => redirect(response, 302, `${other.url.replace('127.0.0.1', 'localhost')}/x?token=abc`));
    const ops = checkedClient({ operations: [operation(api.url, 'GET', 'read')], fetch: directOperationFetch, auth });
    const envelope = failureOf(await ops.call('acme.get', { path: 'a' }));
    expect(envelope).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'REDIRECT_NOT_FOLLOWED', http_status: 302 });
    expect(envelope.remediation).not.toContain('token=abc');
    expect(other.hits).toHaveLength(0);
  });

  it('stops a read after five same-origin redirects', async () => {
    const api = await server((_hit, response) => redirect(response, 307, `/hop${api.hits.length}`));
    const ops = checkedClient({ operations: [operation(api.url, 'GET', 'read')], fetch: directOperationFetch });
    expect(failureOf(await ops.call('acme.get', { path: 'start' }))).toMatchObject({ code: 'TOO_MANY_REDIRECTS' });
    expect(api.hits).toHaveLength(6);
  });

  it('never follows a redirect on a mutation: 307 is a definite refusal, 303 an unknown outcome', async () => {
    const api = await server((hit, response) => redirect(response, hit.url === '/see' ? 303 : 307, '/elsewhere'));
    const ops = checkedClient({ operations: [operation(api.url, 'POST', 'mutate')], fetch: directOperationFetch });
    expect(failureOf(await ops.call('acme.post', { path: 'moved' }))).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'REDIRECT_NOT_FOLLOWED', http_status: 307 });
    expect(failureOf(await ops.call('acme.post', { path: 'see' }))).toMatchObject({ category: 'OUTCOME_UNKNOWN', http_status: 303 });
    expect(api.hits.map((hit) => hit.url)).toEqual(['/moved', '/see']);
  });
});
