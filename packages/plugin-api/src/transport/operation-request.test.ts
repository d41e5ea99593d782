import { afterEach, describe, expect, it } from 'vitest';
import { checkedClient, json, serve, type TestServer } from '../../test/operation-server.js';
import { EnvelopeError } from '../envelope.js';
import { directOperationFetch } from './operation-fetch.js';
import { encodeRfc3986, renderRequest } from './operation-request.js';
import type { AuthProvider, OperationDescriptor, OperationDiagnostic } from './operation-types.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const search: OperationDescriptor = {
  id: 'acme.search',
  method: 'GET',
  url: 'https://api.example.test/v1/{owner}/items?fixed=1',
  params: [
    { name: 'owner', in: 'path', required: true },
    { name: 'q', in: 'query', required: false },
    { name: 'tag', in: 'query', required: false },
    { name: 'X-Locale', in: 'header', required: false },
  ],
  tier: 'read',
};

describe('request rendering', () => {
  it('percent-encodes path and query per RFC 3986, repeats array query parameters, adds header parameters', () => {
    expect(encodeRfc3986("a/b c!'()*~._-")).toBe('a%2Fb%20c%21%27%28%29%2A~._-');
    const rendered = renderRequest(search, { owner: 'a/b', q: 'x&y=z ü', tag: ['1', 2, true], 'X-Locale': 'de' });
    expect(rendered.url).toBe('https://api.example.test/v1/a%2Fb/items?fixed=1&q=x%26y%3Dz%20%C3%BC&tag=1&tag=2&tag=true');
    expect(rendered.headers).toEqual([
      ['X-Locale', 'de'],
      ['accept', 'application/json'],
    ]);
  });

  it('sends a form body', async () => {
    const api = await serve((hit, response) => json(response, 200, { got: hit.body, type: hit.headers['content-type'] }));
    servers.push(api);
    const login: OperationDescriptor = { id: 'acme.login', method: 'POST', url: `${api.url}/login`, params: [], body: { required: true, mediaType: 'application/x-www-form-urlencoded' }, tier: 'mutate' };
    const result = await checkedClient({ operations: [login], fetch: directOperationFetch }).call('acme.login', { body: { user: 'a b', scope: ['r', 'w'] } });
    expect(result).toMatchObject({ ok: true, value: { got: 'user=a+b&scope=r&scope=w', type: 'application/x-www-form-urlencoded' } });
  });

  it('adds auth headers and, after a 401 the provider refreshed, resends once', async () => {
    let token = 'old';
    const auth: AuthProvider = {
      headers: () => Promise.resolve([['Authorization', `Bearer ${token}`]]),
      unauthorized: () => {
        token = 'new';
        return Promise.resolve(true);
      },
    };
    const api = await serve((hit, response) => (hit.headers.authorization === 'Bearer new' ? json(response, 200, { ok: 1 }) : json(response, 401, { error: 'expired' })));
    servers.push(api);
    const op: OperationDescriptor = { id: 'acme.me', method: 'GET', url: `${api.url}/me`, params: [], tier: 'read' };
    expect(await checkedClient({ operations: [op], fetch: directOperationFetch, auth }).call('acme.me', {})).toMatchObject({ ok: true, value: { ok: 1 } });
    expect(api.hits.map((hit) => hit.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);
    token = 'stale';
    const stuck = { ...auth, unauthorized: () => Promise.resolve(true) };
    const failed = await checkedClient({ operations: [op], fetch: directOperationFetch, auth: stuck }).call('acme.me', {});
    expect(failed).toMatchObject({ ok: false, envelope: { category: 'AUTH_FAILED', http_status: 401 } });
    expect(api.hits).toHaveLength(4);
  });

  it("passes an auth provider's envelope on, sending nothing", async () => {
    const api = await serve((_hit, response) => json(response, 200, {}));
    servers.push(api);
    const op: OperationDescriptor = { id: 'acme.me', method: 'GET', url: `${api.url}/me`, params: [], tier: 'read' };
    const auth: AuthProvider = { headers: () => Promise.reject(new EnvelopeError({ category: 'AUTH_FAILED', code: 'OAUTH_NO_TOKEN', remediation: 'Authorize first.' })) };
    const result = await checkedClient({ operations: [op], fetch: directOperationFetch, auth }).call('acme.me', {});
    expect(result).toMatchObject({ ok: false, envelope: { category: 'AUTH_FAILED', code: 'OAUTH_NO_TOKEN', operation: 'acme.me' } });
    expect(api.hits).toHaveLength(0);
  });

  it('shows sensitive parameters redacted in diagnostics while sending them', async () => {
    const api = await serve((_hit, response) => json(response, 200, {}));
    servers.push(api);
    const op: OperationDescriptor = { id: 'acme.find', method: 'GET', url: `${api.url}/find`, params: [{ name: 'token', in: 'query', required: true, sensitive: true }], tier: 'read' };
    const events: OperationDiagnostic[] = [];
    await checkedClient({ operations: [op], fetch: directOperationFetch, onDiagnostic: (event) => events.push(event) }).call('acme.find', { token: 'tok-secret' });
    expect(api.hits[0]?.url).toBe('/find?token=tok-secret');
    expect(events[0]).toMatchObject({ type: 'request', url: `${api.url}/find?token=<redacted>` });
    expect(JSON.stringify(events)).not.toContain('tok-secret');
  });

  it('refuses an unknown operation id', async () => {
    const result = await checkedClient({ operations: [search], fetch: directOperationFetch }).call('acme.nope', {});
    expect(result).toMatchObject({ ok: false, envelope: { category: 'VALIDATION_FAILED', code: 'OPERATION_UNKNOWN', expected: 'one of: acme.search' } });
  });
});
