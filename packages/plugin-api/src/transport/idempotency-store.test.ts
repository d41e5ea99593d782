import { afterEach, describe, expect, it } from 'vitest';
import { checkedClient, closedPort, failureOf, json, serve, type TestServer } from '../../test/operation-server.js';
import type { PluginStore } from '../store.js';
import { memoryIdempotencyStore, pluginStoreIdempotency, type IdempotencyStore } from './idempotency-store.js';
import { directOperationFetch } from './operation-fetch.js';
import type { OperationDescriptor, OperationDiagnostic } from './operation-types.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The PluginStore contract over a Map (the kernel's SQLite one is not reachable from plugin-api). */
function mapStore(): PluginStore & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  return {
    entries,
    get: (key) => entries.get(key),
    put: (key, value) => void entries.set(key, value),
    delete: (key) => entries.delete(key),
    list: (prefix = '') => [...entries].filter(([key]) => key.startsWith(prefix)).map(([key, value]) => ({ key, value })),
    transaction: (fn) => fn(),
  };
}

const charge = (base: string, policy: NonNullable<OperationDescriptor['idempotency']>): OperationDescriptor => ({
  id: 'acme.charge',
  method: 'POST',
  url: `${base}/charges`,
  params: [],
  body: { required: true, mediaType: 'application/json' },
  tier: 'mutate',
  idempotency: policy,
  sensitive: ['body.card'],
  retries: { maxAttempts: 2, baseMs: 1 },
});

describe('idempotency stores', () => {
  it('keeps keys per scope and logical id, in memory and in a PluginStore', () => {
    const plugin = mapStore();
    for (const store of [memoryIdempotencyStore(), pluginStoreIdempotency(plugin)]) {
      store.put('a', 'x', 'k1');
      store.put('a', 'y', 'k2');
      expect([store.get('a', 'x'), store.get('a', 'y'), store.get('b', 'x')]).toEqual(['k1', 'k2', undefined]);
    }
    expect([...plugin.entries.keys()]).toEqual(['idempotency/["a","x"]', 'idempotency/["a","y"]']);
  });

  it('forgets a key after its time to live, and sweeps expired keys out of the store', () => {
    let now = 0;
    const plugin = mapStore();
    const store = pluginStoreIdempotency(plugin, { ttlMs: 1000, now: () => now });
    store.put('a', 'old', 'k-old');
    now = 999;
    expect(store.get('a', 'old')).toBe('k-old');
    now = 1000;
    expect(store.get('a', 'old')).toBeUndefined();
    for (let i = 0; i < 63; i++) store.put('a', `fresh-${i}`, `k${i}`);
    expect(plugin.entries.has('idempotency/["a","old"]')).toBe(false);
    expect(plugin.entries.size).toBe(63);
    expect(JSON.stringify([...plugin.entries.values()])).not.toContain('k-old');
  });
});

describe('idempotency policies', () => {
  it('auto: stores the key before the request is sent and reuses it for the same logical id', async () => {
    const store = pluginStoreIdempotency(mapStore());
    const seen: (string | undefined)[] = [];
    const api = await serve((_hit, response) => {
      seen.push(store.get('acme.charge', 'order-7'));
      json(response, 201, {});
    });
    servers.push(api);
    const client = checkedClient({ operations: [charge(api.url, { policy: 'auto' })], fetch: directOperationFetch, idempotency: store });
    await client.call('acme.charge', { body: { amount: 5 } }, { logicalId: 'order-7' });
    await client.call('acme.charge', { body: { amount: 5 } }, { logicalId: 'order-7' });
    await client.call('acme.charge', { body: { amount: 5 } }, { logicalId: 'order-8' });
    const keys = api.hits.map((hit) => hit.headers['idempotency-key']);
    expect(seen[0]).toBe(keys[0]);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('caller_owned: refuses a missing or malformed key before sending, and remembers a good one', async () => {
    const api = await serve((_hit, response) => json(response, 201, {}));
    servers.push(api);
    const store: IdempotencyStore = memoryIdempotencyStore();
    const client = checkedClient({ operations: [charge(api.url, { policy: 'caller_owned' })], fetch: directOperationFetch, idempotency: store });
    expect(failureOf(await client.call('acme.charge', { body: { amount: 5 } }))).toMatchObject({ category: 'VALIDATION_FAILED', code: 'IDEMPOTENCY_KEY_REQUIRED', failed_parameter: 'idempotencyKey', expected: 'UUIDv4 string' });
    const bad = failureOf(await client.call('acme.charge', { body: { amount: 5 } }, { idempotencyKey: 'replay-1' }));
    expect(bad).toMatchObject({ code: 'IDEMPOTENCY_KEY_INVALID', received_value: '[sensitive]' });
    const key = '9f1c2b3a-4d5e-4f60-8a7b-6c5d4e3f2a1b';
    await client.call('acme.charge', { body: { amount: 5 } }, { idempotencyKey: key, logicalId: 'order-1' });
    await client.call('acme.charge', { body: { amount: 5 } }, { logicalId: 'order-1' });
    expect(api.hits.map((hit) => hit.headers['idempotency-key'])).toEqual([key, key]);
  });

  it("caller_owned with persist 'required': bypasses the store", async () => {
    const api = await serve((_hit, response) => json(response, 201, {}));
    servers.push(api);
    const plugin = mapStore();
    const client = checkedClient({ operations: [charge(api.url, { policy: 'caller_owned', persist: 'required' })], fetch: directOperationFetch, idempotency: pluginStoreIdempotency(plugin) });
    await client.call('acme.charge', { body: { amount: 5 } }, { idempotencyKey: '9f1c2b3a-4d5e-4f60-8a7b-6c5d4e3f2a1b', logicalId: 'order-1' });
    expect(plugin.entries.size).toBe(0);
    expect(failureOf(await client.call('acme.charge', { body: { amount: 5 } }, { logicalId: 'order-1' })).code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('sends nothing when the store cannot keep the key, and answers with an envelope', async () => {
    const api = await serve((_hit, response) => json(response, 201, {}));
    servers.push(api);
    const broken: IdempotencyStore = { get: () => undefined, put: () => { throw new Error('database is locked'); } };
    const result = await checkedClient({ operations: [charge(api.url, { policy: 'auto' })], fetch: directOperationFetch, idempotency: broken }).call('acme.charge', { body: { amount: 5 } });
    expect(failureOf(result)).toMatchObject({ category: 'INTERNAL', operation: 'acme.charge' });
    expect(api.hits).toHaveLength(0);
  });

  it('never puts a key or a sensitive field into envelopes, diagnostics or previews', async () => {
    const key = '9f1c2b3a-4d5e-4f60-8a7b-6c5d4e3f2a1b';
    const events: OperationDiagnostic[] = [];
    const api = await serve((hit, response) => json(response, 503, { error: { message: `busy, key ${String(hit.headers['idempotency-key'])}` } }));
    servers.push(api);
    const port = await closedPort();
    const operations = [charge(api.url, { policy: 'caller_owned' }), { ...charge(`http://127.0.0.1:${port}`, { policy: 'auto' }), id: 'acme.chargeDown' }];
    const client = checkedClient({ operations, fetch: directOperationFetch, onDiagnostic: (event) => events.push(event) });
    const args = { body: { amount: 5, card: '4242424242424242' } };
    const outputs = [
      await client.call('acme.charge', args, { idempotencyKey: key }),
      await client.call('acme.chargeDown', args),
      client.preview('acme.charge', args),
      client.preview('acme.chargeDown', args),
    ];
    const sentKeys = api.hits.map((hit) => String(hit.headers['idempotency-key']));
    expect(sentKeys).toEqual([key, key]);
    const text = JSON.stringify([outputs, events]);
    expect(text).not.toContain(key);
    expect(text).not.toContain('4242424242424242');
    expect(failureOf(outputs[0] as object).category).toBe('OUTCOME_UNKNOWN');
    expect(events.map((event) => event.type)).toEqual(['request', 'retry', 'request', 'outcome', 'request', 'retry', 'request', 'outcome']);
  });
});
