import { afterEach, describe, expect, it } from 'vitest';
import { checkedClient, failureOf, json, serve, type TestServer } from '../../test/operation-server.js';
import { confirmationTokens } from './confirmation-token.js';
import { directOperationFetch } from './operation-fetch.js';
import type { AuthProvider, OperationClientOptions, OperationDescriptor, Preview } from './operation-types.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function api(handler: Parameters<typeof serve>[0] = (_hit, response) => json(response, 200, { ok: true })): Promise<TestServer> {
  const started = await serve(handler);
  servers.push(started);
  return started;
}

const deleteWebhook = (base: string, extra: Partial<OperationDescriptor> = {}): OperationDescriptor => ({
  id: 'acme.deleteWebhook',
  method: 'DELETE',
  url: `${base}/webhooks/{hookId}`,
  params: [{ name: 'hookId', in: 'path', required: true }],
  tier: 'destructive',
  description: 'Deletes a webhook endpoint.\n\n  Pending deliveries are dropped.',
  confirmation: { message: 'Disables webhook endpoint {hookId} immediately.', remediationNote: 'Create it again to restore deliveries.' },
  ...extra,
});

const auth: AuthProvider = {
  headers: () => Promise.resolve([['Authorization', 'Bearer {{secret:ACME_TOKEN}}']]),
  describe: () => [['Authorization', 'Bearer {{secret:ACME_TOKEN}}']],
};

function client(operations: OperationDescriptor[], extra: Partial<OperationClientOptions> = {}) {
  return checkedClient({ operations, fetch: directOperationFetch, auth, random: () => 0, ...extra });
}

function tokenOf(preview: ReturnType<ReturnType<typeof client>['preview']>): string {
  expect(preview).not.toHaveProperty('ok');
  return (preview as Preview).confirmation_token;
}

describe('confirmation tokens', () => {
  it('refuses a destructive call without a token before anything is sent', async () => {
    const server = await api();
    const result = await client([deleteWebhook(server.url)]).call('acme.deleteWebhook', { hookId: 'h1' });
    expect(failureOf(result)).toMatchObject({ category: 'CONFIRMATION_REQUIRED', code: 'CONFIRMATION_TOKEN_REQUIRED', failed_parameter: 'confirmationToken' });
    expect(server.hits).toHaveLength(0);
  });

  it('sends with the token of a preview of the same arguments, then refuses it as spent', async () => {
    const server = await api();
    const ops = client([deleteWebhook(server.url)]);
    const token = tokenOf(ops.preview('acme.deleteWebhook', { hookId: 'h1' }));
    expect(token.startsWith('ngc1.')).toBe(true);
    expect(await ops.call('acme.deleteWebhook', { hookId: 'h1' }, { confirmationToken: token })).toMatchObject({ ok: true });
    const again = await ops.call('acme.deleteWebhook', { hookId: 'h1' }, { confirmationToken: token });
    expect(failureOf(again)).toMatchObject({ code: 'CONFIRMATION_TOKEN_SPENT' });
    expect(server.hits).toHaveLength(1);
  });

  it('refuses a token used with other arguments, for another operation, forged, or expired', async () => {
    const server = await api();
    let now = Date.now();
    const other = { ...deleteWebhook(server.url), id: 'acme.rotateWebhook', method: 'POST', url: `${server.url}/webhooks/{hookId}/rotate` };
    const ops = client([deleteWebhook(server.url), other], { now: () => now });
    const token = tokenOf(ops.preview('acme.deleteWebhook', { hookId: 'h1' }));
    const refused = async (id: string, args: unknown, confirmationToken: string) => failureOf(await ops.call(id, args, { confirmationToken })).code;
    expect(await refused('acme.deleteWebhook', { hookId: 'h2' }, token)).toBe('CONFIRMATION_TOKEN_INVALID');
    expect(await refused('acme.rotateWebhook', { hookId: 'h1' }, token)).toBe('CONFIRMATION_TOKEN_INVALID');
    const [, payload = '', mac = ''] = token.split('.');
    const extended = { ...(JSON.parse(Buffer.from(payload, 'base64url').toString()) as object), e: now + 86_400_000 };
    const forged = `ngc1.${Buffer.from(JSON.stringify(extended)).toString('base64url')}.${mac}`;
    expect(await refused('acme.deleteWebhook', { hookId: 'h1' }, forged)).toBe('CONFIRMATION_TOKEN_INVALID');
    const foreign = tokenOf(client([deleteWebhook(server.url)]).preview('acme.deleteWebhook', { hookId: 'h1' }));
    expect(await refused('acme.deleteWebhook', { hookId: 'h1' }, foreign)).toBe('CONFIRMATION_TOKEN_INVALID');
    now += 300_001;
    expect(await refused('acme.deleteWebhook', { hookId: 'h1' }, token)).toBe('CONFIRMATION_TOKEN_INVALID');
    expect(server.hits).toHaveLength(0);
  });

  it('does not spend a token on a call refused before sending', async () => {
    const server = await api();
    const ops = client([deleteWebhook(server.url, { idempotency: { policy: 'caller_owned', persist: 'required' } })]);
    const token = tokenOf(ops.preview('acme.deleteWebhook', { hookId: 'h1' }));
    expect(failureOf(await ops.call('acme.deleteWebhook', { hookId: 'h1' }, { confirmationToken: token })).code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const sent = await ops.call('acme.deleteWebhook', { hookId: 'h1' }, { confirmationToken: token, idempotencyKey: '0b2e6c1a-4a1f-4f0e-8c55-3d2a1b0c9e8f' });
    expect(sent).toMatchObject({ ok: true });
  });

  it('binds a spent token to the key it was sent with: a retry with that key passes, another key does not', async () => {
    const server = await api((_hit, response, request) => (server.hits.length === 1 ? request.socket.destroy() : json(response, 200, {})));
    const ops = client([deleteWebhook(server.url, { idempotency: { policy: 'caller_owned' }, retries: { maxAttempts: 1 } })]);
    const token = tokenOf(ops.preview('acme.deleteWebhook', { hookId: 'h1' }));
    const key = '0b2e6c1a-4a1f-4f0e-8c55-3d2a1b0c9e8f';
    const lost = failureOf(await ops.call('acme.deleteWebhook', { hookId: 'h1' }, { confirmationToken: token, idempotencyKey: key }));
    expect(lost).toMatchObject({ category: 'OUTCOME_UNKNOWN', retryable: 'same_key_only' });
    const otherKey = await ops.call('acme.deleteWebhook', { hookId: 'h1' }, { confirmationToken: token, idempotencyKey: '7c9e6679-7425-40de-944b-e07fc1f90ae7' });
    expect(failureOf(otherKey).code).toBe('CONFIRMATION_TOKEN_SPENT');
    expect(await ops.call('acme.deleteWebhook', { hookId: 'h1' }, { confirmationToken: token, idempotencyKey: key })).toMatchObject({ ok: true });
    expect(server.hits.map((hit) => hit.headers['idempotency-key'])).toEqual([key, key]);
  });

  it('checks MACs in constant time over the operation and the digest only it can make', () => {
    const key = new Uint8Array(32).fill(7);
    const tokens = confirmationTokens(key, () => 1000);
    const token = tokens.issue('op', 'digest-a');
    expect(tokens.check(token, 'op', 'digest-a', undefined)).toMatchObject({ expiresAt: 301_000 });
    expect(tokens.check(token, 'op', 'digest-b', undefined)).toMatchObject({ code: 'CONFIRMATION_TOKEN_INVALID' });
    expect(tokens.check('tgc1.x.y', 'op', 'digest-a', undefined)).toMatchObject({ code: 'CONFIRMATION_TOKEN_INVALID' });
  });
});

describe('preview and describe', () => {
  const createUser = (base: string): OperationDescriptor => ({
    id: 'acme.createUser',
    method: 'POST',
    url: `${base}/orgs/{org}/users`,
    params: [
      { name: 'org', in: 'path', required: true },
      { name: 'invite', in: 'query', required: false, sensitive: true },
    ],
    body: { required: true, mediaType: 'application/json' },
    tier: 'irreversible',
    idempotency: { policy: 'auto' },
    sensitive: ['body.password'],
    confirmation: { message: 'Creates user {name} in {org}; invite {invite}.' },
  });

  it('shows the request with credentials, the key and sensitive fields redacted, the effects and a token', async () => {
    const server = await api();
    const preview = client([createUser(server.url)]).preview('acme.createUser', { org: 'a b', invite: 'inv-123', body: { name: 'ada', password: 'hunter2' } }) as Preview;
    expect(preview).toMatchObject({
      operation: 'acme.createUser',
      safety: 'irreversible',
      request: {
        method: 'POST',
        url: `${server.url}/orgs/a%20b/users?invite=<redacted>`,
        headers: { Authorization: '<redacted>', 'Idempotency-Key': '<redacted>', 'content-type': 'application/json' },
        body: { name: 'ada', password: '<redacted>' },
      },
      effects: ['Creates user {name} in a b; invite <redacted>.'],
      expires_in_ms: 300_000,
    });
    expect(JSON.stringify(preview)).not.toMatch(/hunter2|inv-123|secret:/);
  });

  it('compacts the description into the effects', async () => {
    const server = await api();
    const preview = client([deleteWebhook(server.url)]).preview('acme.deleteWebhook', { hookId: 'h1' }) as Preview;
    expect(preview.effects).toEqual(['Disables webhook endpoint h1 immediately.', 'Create it again to restore deliveries.', 'Deletes a webhook endpoint. Pending deliveries are dropped.']);
  });

  it('describes the request the egress stage checks, credentials as handles; undefined when preflight fails', async () => {
    const server = await api();
    const ops = client([createUser(server.url)]);
    expect(ops.describe('acme.createUser', { org: 'o', body: { name: 'ada', password: 'p' } })).toEqual({
      method: 'POST',
      url: `${server.url}/orgs/o/users`,
      headers: [
        ['accept', 'application/json'],
        ['content-type', 'application/json'],
        ['Authorization', 'Bearer {{secret:ACME_TOKEN}}'],
      ],
      body: '{"name":"ada","password":"p"}',
    });
    expect(ops.describe('acme.createUser', { org: '..', body: {} })).toBeUndefined();
    expect(failureOf(ops.preview('acme.createUser', { org: 'o' }))).toMatchObject({ code: 'PARAM_MISSING' });
  });
});
