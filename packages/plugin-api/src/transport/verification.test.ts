import { afterEach, describe, expect, it } from 'vitest';
import { checkedClient, json, serve, type TestServer } from '../../test/operation-server.js';
import { directOperationFetch } from './operation-fetch.js';
import type { OperationDescriptor, VerifyDescriptor } from './operation-types.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A message API whose status moves queued → sending → delivered, one step per status read. */
async function messages(): Promise<TestServer> {
  const states = ['queued', 'sending', 'delivered'];
  let reads = 0;
  const api = await serve((hit, response) => {
    if (hit.method === 'POST') json(response, 201, { id: 'm1', to: (JSON.parse(hit.body) as { to: string }).to });
    else json(response, 200, { id: hit.url.split('/')[2], status: states[Math.min(reads++, states.length - 1)] });
  });
  servers.push(api);
  return api;
}

const ops = (base: string, verify: VerifyDescriptor, tier: OperationDescriptor['tier'] = 'mutate'): OperationDescriptor[] => [
  { id: 'acme.sendMessage', method: 'POST', url: `${base}/messages`, params: [], body: { required: true, mediaType: 'application/json' }, tier, verify, idempotency: { policy: 'auto' } },
  { id: 'acme.getMessage', method: 'GET', url: `${base}/messages/{messageId}`, params: [{ name: 'messageId', in: 'path', required: true }], tier: 'read' },
];

describe('verification hooks', () => {
  it('polls the read to terminal and attaches the state, leaving the result as it was', async () => {
    const api = await messages();
    const verify = { operation: 'acme.getMessage', args: { messageId: '$response.id' }, expect: { id: '$response.id' }, terminal: { status: 'delivered' }, intervalMs: 20, budgetMs: 2000 };
    const client = checkedClient({ operations: ops(api.url, verify), fetch: directOperationFetch });
    const result = await client.call('acme.sendMessage', { body: { to: '+15550100' } }, { verify: true });
    expect(result).toMatchObject({ ok: true, status: 201, value: { id: 'm1', to: '+15550100' }, verification: { checked: true, state: 'delivered', matched: true, polls: 3 } });
    expect(api.hits.filter((hit) => hit.method === 'GET').map((hit) => hit.url)).toEqual(['/messages/m1', '/messages/m1', '/messages/m1']);
  });

  it('stops polling at the budget, unmatched', async () => {
    const api = await messages();
    const verify = { operation: 'acme.getMessage', args: { messageId: 'm1' }, terminal: { status: 'read' }, intervalMs: 30, budgetMs: 100 };
    const result = await checkedClient({ operations: ops(api.url, verify), fetch: directOperationFetch }).call('acme.sendMessage', { body: { to: 'x' } }, { verify: true });
    expect(result.ok && result.verification).toMatchObject({ checked: true, matched: false });
    expect(result.ok && result.verification?.polls).toBeLessThanOrEqual(4);
  });

  it('never matches an expectation whose reference does not resolve', async () => {
    const api = await messages();
    const verify = { operation: 'acme.getMessage', args: { messageId: '$args.body.to' }, expect: { id: '$response.missing' } };
    const result = await checkedClient({ operations: ops(api.url, verify), fetch: directOperationFetch }).call('acme.sendMessage', { body: { to: 'm1' } }, { verify: true });
    expect(result.ok && result.verification).toMatchObject({ checked: true, matched: false, polls: 1 });
  });

  it('reports an argument reference that does not resolve without calling the read', async () => {
    const api = await messages();
    const verify = { operation: 'acme.getMessage', args: { messageId: '$response.nope' } };
    const result = await checkedClient({ operations: ops(api.url, verify), fetch: directOperationFetch }).call('acme.sendMessage', { body: { to: 'x' } }, { verify: true });
    expect(result.ok && result.verification).toMatchObject({ checked: false, envelope: { code: 'VERIFY_REFERENCE_UNRESOLVED', failed_parameter: 'messageId' } });
    expect(api.hits.filter((hit) => hit.method === 'GET')).toHaveLength(0);
  });

  it('runs nothing when the verify entry names a mutation', async () => {
    const api = await messages();
    const verify = { operation: 'acme.sendMessage', args: { body: { to: 'again' } } };
    const result = await checkedClient({ operations: ops(api.url, verify), fetch: directOperationFetch }).call('acme.sendMessage', { body: { to: 'x' } }, { verify: true });
    expect(result.ok && result.verification).toMatchObject({ checked: false, polls: 1, envelope: { code: 'OPERATION_UNKNOWN' } });
    expect(api.hits).toHaveLength(1);
  });

  it('is on by default for irreversible operations only', async () => {
    const api = await messages();
    const verify = { operation: 'acme.getMessage', args: { messageId: '$response.id' } };
    const mutate = await checkedClient({ operations: ops(api.url, verify), fetch: directOperationFetch }).call('acme.sendMessage', { body: { to: 'x' } });
    expect(mutate).not.toHaveProperty('verification');
    const client = checkedClient({ operations: ops(api.url, verify, 'irreversible'), fetch: directOperationFetch });
    const preview = client.preview('acme.sendMessage', { body: { to: 'x' } });
    const token = 'confirmation_token' in preview ? preview.confirmation_token : '';
    const irreversible = await client.call('acme.sendMessage', { body: { to: 'x' } }, { confirmationToken: token });
    expect(irreversible).toMatchObject({ ok: true, verification: { checked: true, polls: 1, state: { id: 'm1', status: 'queued' } } });
  });
});
