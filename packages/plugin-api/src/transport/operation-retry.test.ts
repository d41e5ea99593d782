import { afterEach, describe, expect, it } from 'vitest';
import { checkedClient, closedPort, failureOf, json, serve, type TestServer } from '../../test/operation-server.js';
import { directOperationFetch } from './operation-fetch.js';
import type { OperationClientOptions, OperationDescriptor, OperationDiagnostic } from './operation-types.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(...args: Parameters<typeof serve>): Promise<TestServer> {
  const started = await serve(...args);
  servers.push(started);
  return started;
}

const getPet = (base: string, extra: Partial<OperationDescriptor> = {}): OperationDescriptor => ({
  id: 'acme.getPet',
  method: 'GET',
  url: `${base}/pets/{petId}`,
  params: [{ name: 'petId', in: 'path', required: true }],
  tier: 'read',
  ...extra,
});

const createPet = (base: string, extra: Partial<OperationDescriptor> = {}): OperationDescriptor => ({
  id: 'acme.createPet',
  method: 'POST',
  url: `${base}/pets`,
  params: [],
  body: { required: true, mediaType: 'application/json' },
  tier: 'mutate',
  ...extra,
});

function client(operations: OperationDescriptor[], extra: Partial<OperationClientOptions> = {}) {
  const events: OperationDiagnostic[] = [];
  const made = checkedClient({ operations, fetch: directOperationFetch, random: () => 0, retry: { baseMs: 10 }, onDiagnostic: (event) => events.push(event), ...extra });
  return Object.assign(made, { events });
}

describe('retry tiers of reads', () => {
  it('retries a read after 503 with Retry-After in seconds, waiting as asked', async () => {
    const api = await server((_hit, response) => (api.hits.length === 1 ? json(response, 503, { error: 'busy' }, { 'retry-after': '1' }) : json(response, 200, { id: 'p1' })));
    const ops = client([getPet(api.url)]);
    const started = Date.now();
    const result = await ops.call('acme.getPet', { petId: 'p1' });
    expect(result).toMatchObject({ ok: true, status: 200, value: { id: 'p1' }, attempts: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(ops.events.find((event) => event.type === 'retry')).toMatchObject({ delayMs: 1000, attempt: 2 });
  });

  it('retries a read after 503 with Retry-After as an HTTP-date', async () => {
    const at = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
    const api = await server((_hit, response) => (api.hits.length === 1 ? json(response, 503, {}, { 'retry-after': at.toUTCString() }) : json(response, 200, { id: 'p1' })));
    const ops = client([getPet(api.url)]);
    const result = await ops.call('acme.getPet', { petId: 'p1' });
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 5);
    const retry = ops.events.find((event) => event.type === 'retry');
    expect(retry?.type === 'retry' && retry.delayMs).toBeGreaterThan(400);
  });

  it('does not wait longer than maxMs: the envelope carries the server retry_after_ms', async () => {
    const api = await server((_hit, response) => json(response, 429, {}, { 'retry-after': '120' }));
    const result = await client([getPet(api.url)], { retry: { maxMs: 1000 } }).call('acme.getPet', { petId: 'p1' });
    expect(failureOf(result)).toMatchObject({ category: 'RATE_LIMITED', retry_after_ms: 120_000, retryable: 'after_delay', trace: { attempts: 1 } });
    expect(api.hits).toHaveLength(1);
  });

  it('reads a 500 as UPSTREAM_UNAVAILABLE after its attempts, never OUTCOME_UNKNOWN', async () => {
    const api = await server((_hit, response) => json(response, 500, { error: { code: 'boom', message: 'failed' } }));
    const result = await client([getPet(api.url, { retries: { maxAttempts: 3 } })]).call('acme.getPet', { petId: 'p1' });
    expect(failureOf(result)).toMatchObject({ category: 'UPSTREAM_UNAVAILABLE', retryable: 'after_delay', http_status: 500, trace: { attempts: 3 } });
    expect(api.hits).toHaveLength(3);
  });

  it('reads an ambiguous status, and a mapping to OUTCOME_UNKNOWN, as UPSTREAM_UNAVAILABLE after_delay', async () => {
    const api = await server((hit, response) => json(response, hit.url.endsWith('/a') ? 409 : 400, { error: { code: 'unsure' } }));
    const ops = client(
      [getPet(api.url, { retries: { maxAttempts: 1 }, errors: { ambiguousStatuses: [409], codes: { unsure: { category: 'OUTCOME_UNKNOWN', remediation: 'Acme could not tell.' } } } })],
    );
    const ambiguous = failureOf(await ops.call('acme.getPet', { petId: 'a' }));
    expect(ambiguous).toMatchObject({ category: 'UPSTREAM_UNAVAILABLE', retryable: 'after_delay' });
    const mapped = failureOf(await ops.call('acme.getPet', { petId: 'b' }));
    expect(mapped).toMatchObject({ category: 'UPSTREAM_UNAVAILABLE', retryable: 'after_delay', code: 'unsure', remediation: 'Acme could not tell.' });
  });

  it('retries a read whose connection is refused, then reports TRANSPORT_FAILED', async () => {
    const port = await closedPort();
    const ops = client([getPet(`http://127.0.0.1:${port}`, { retries: { maxAttempts: 2 } })]);
    const result = await ops.call('acme.getPet', { petId: 'p1' });
    expect(failureOf(result)).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'CONNECTION_FAILED', trace: { attempts: 2 } });
    expect(ops.events.filter((event) => event.type === 'request')).toHaveLength(2);
  });

  it('ends a read that outlives its attempt timeout with TIMEOUT', async () => {
    const api = await server(() => undefined);
    const result = await client([getPet(api.url)], { timeoutMs: 150 }).call('acme.getPet', { petId: 'p1' });
    expect(failureOf(result)).toMatchObject({ category: 'TIMEOUT', code: 'ATTEMPT_TIMEOUT' });
  });

  it('aborts the wait before a retry when the caller cancels', async () => {
    const api = await server((_hit, response) => json(response, 503, {}, { 'retry-after': '5' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const result = await client([getPet(api.url)], { retry: { maxMs: 10_000 } }).call('acme.getPet', { petId: 'p1' }, { signal: controller.signal });
    expect(failureOf(result)).toMatchObject({ category: 'CANCELLED' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives undefined for a 204 and for an empty success', async () => {
    const api = await server((hit, response) => {
      response.writeHead(hit.url.endsWith('/gone') ? 204 : 200, { 'content-type': 'application/json' });
      response.end();
    });
    const ops = client([getPet(api.url)]);
    expect(await ops.call('acme.getPet', { petId: 'gone' })).toMatchObject({ ok: true, status: 204, value: undefined });
    expect(await ops.call('acme.getPet', { petId: 'empty' })).toMatchObject({ ok: true, status: 200, value: undefined });
  });
});

describe('mutations without a key', () => {
  it('is OUTCOME_UNKNOWN when the connection is destroyed after the server received the request, and is never re-sent', async () => {
    const api = await server((_hit, _response, request) => request.socket.destroy());
    const ops = client([createPet(api.url, { verify: { operation: 'acme.getPet', args: { petId: '$args.body.name' } } }), getPet(api.url)]);
    const result = await ops.call('acme.createPet', { body: { name: 'rex' } });
    const envelope = failureOf(result);
    expect(envelope).toMatchObject({ category: 'OUTCOME_UNKNOWN', retryable: 'after_remediation', trace: { attempts: 1 } });
    expect(envelope.next_action).toBe('Call acme.getPet with {"petId":"rex"} to see whether acme.createPet was applied');
    expect(api.hits).toHaveLength(1);
    expect(api.hits[0]?.body).toBe('{"name":"rex"}');
  });

  it('is TRANSPORT_FAILED, sent once, when the connection is refused before anything was written', async () => {
    const port = await closedPort();
    const ops = client([createPet(`http://127.0.0.1:${port}`)]);
    const result = await ops.call('acme.createPet', { body: { name: 'rex' } });
    expect(failureOf(result)).toMatchObject({ category: 'TRANSPORT_FAILED', trace: { attempts: 1 } });
    expect(ops.events.filter((event) => event.type === 'request')).toHaveLength(1);
  });

  it('is OUTCOME_UNKNOWN on any 5xx, with next_action null without a key or usable verification', async () => {
    const api = await server((_hit, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad gateway</html>');
    });
    const result = await client([createPet(api.url, { verify: { operation: 'acme.getPet', args: { petId: '$response.id' } } })]).call('acme.createPet', { body: { name: 'rex' } });
    expect(failureOf(result)).toMatchObject({ category: 'OUTCOME_UNKNOWN', http_status: 502, retryable: 'after_remediation', next_action: null });
    expect(api.hits).toHaveLength(1);
  });

  it('lets a mapping of the answer code to a definite rejection win over the 5xx rule', async () => {
    const api = await server((_hit, response) => json(response, 500, { error: { code: 'pet_exists', message: 'exists' } }));
    const ops = client([createPet(api.url, { errors: { codes: { pet_exists: { category: 'PRECONDITION_FAILED', remediation: 'A pet of that name exists; pick another name.' } } } })]);
    const result = await ops.call('acme.createPet', { body: { name: 'rex' } });
    expect(failureOf(result)).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'pet_exists', retryable: 'after_remediation', remediation: 'A pet of that name exists; pick another name.' });
  });

  it('does not let a mapping to UPSTREAM_UNAVAILABLE make a mutation 5xx definite; the mapping text stays', async () => {
    const api = await server((_hit, response) => json(response, 503, { error: { code: 'unavailable' } }));
    const ops = client([createPet(api.url, { errors: { codes: { unavailable: { category: 'UPSTREAM_UNAVAILABLE', remediation: 'Acme may have committed it.' } } } })]);
    const envelope = failureOf(await ops.call('acme.createPet', { body: { name: 'rex' } }));
    expect(envelope.category).toBe('OUTCOME_UNKNOWN');
    expect(envelope.remediation).toContain('Acme may have committed it.');
  });

  it('maps a non-JSON answer and a status through the manifest, and ambiguousStatuses to OUTCOME_UNKNOWN', async () => {
    const api = await server((hit, response) => {
      const body = JSON.parse(hit.body) as { name: string };
      if (body.name === 'html') {
        response.writeHead(500, { 'content-type': 'text/html' });
        response.end('<h1>disabled</h1>');
      } else json(response, body.name === 'conflict' ? 409 : 425, {});
    });
    const ops = client([
      createPet(api.url, { errors: { nonJson: { category: 'NOT_FOUND', retryable: 'never', remediation: 'The route is disabled.' }, statuses: { '409': { category: 'PRECONDITION_FAILED' } }, ambiguousStatuses: [425] } }),
    ]);
    expect(failureOf(await ops.call('acme.createPet', { body: { name: 'html' } }))).toMatchObject({ category: 'NOT_FOUND', retryable: 'never', code: null });
    expect(failureOf(await ops.call('acme.createPet', { body: { name: 'conflict' } }))).toMatchObject({ category: 'PRECONDITION_FAILED', http_status: 409 });
    expect(failureOf(await ops.call('acme.createPet', { body: { name: 'early' } }))).toMatchObject({ category: 'OUTCOME_UNKNOWN', http_status: 425 });
  });

  it('keeps a 4xx a definite rejection, not retried', async () => {
    const api = await server((_hit, response) => json(response, 429, {}, { 'retry-after': '0' }));
    const result = await client([createPet(api.url)]).call('acme.createPet', { body: { name: 'rex' } });
    expect(failureOf(result)).toMatchObject({ category: 'RATE_LIMITED', trace: { attempts: 1 } });
    expect(api.hits).toHaveLength(1);
  });

  it('is OUTCOME_UNKNOWN when no answer comes within the attempt timeout', async () => {
    const api = await server(() => undefined);
    const result = await client([createPet(api.url)], { timeoutMs: 600 }).call('acme.createPet', { body: { name: 'rex' } });
    expect(failureOf(result)).toMatchObject({ category: 'OUTCOME_UNKNOWN', retryable: 'after_remediation' });
    expect(api.hits).toHaveLength(1);
  });
});

describe('mutations with a key', () => {
  it('re-sends an auto-keyed POST after a reset with the same key and the identical body', async () => {
    const api = await server((_hit, response, request) => (api.hits.length === 1 ? request.socket.destroy() : json(response, 201, { id: 'p1' })));
    const ops = client([createPet(api.url, { idempotency: { policy: 'auto' } })]);
    const result = await ops.call('acme.createPet', { body: { name: 'rex', tags: ['a'] } });
    expect(result).toMatchObject({ ok: true, status: 201, value: { id: 'p1' }, attempts: 2 });
    expect(api.hits).toHaveLength(2);
    const [first, second] = api.hits;
    expect(first?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(second?.body).toBe(first?.body);
  });

  it('retries a keyed mutation on 503 and ends OUTCOME_UNKNOWN, same_key_only, when attempts run out', async () => {
    const api = await server((_hit, response) => json(response, 503, {}));
    const key = '5b0a3c1e-8d2f-4c6b-9a7e-1f2d3c4b5a69';
    const ops = client([createPet(api.url, { idempotency: { policy: 'caller_owned', header: 'X-Request-Key' }, retries: { maxAttempts: 3 } })]);
    const envelope = failureOf(await ops.call('acme.createPet', { body: { name: 'rex' } }, { idempotencyKey: key }));
    expect(envelope).toMatchObject({ category: 'OUTCOME_UNKNOWN', retryable: 'same_key_only', trace: { attempts: 3 } });
    expect(envelope.next_action).toBe('Repeat acme.createPet with the same idempotencyKey and identical arguments');
    expect(api.hits.map((hit) => hit.headers['x-request-key'])).toEqual([key, key, key]);
  });

  it('stays OUTCOME_UNKNOWN when an attempt may have been applied and the repeat is refused', async () => {
    const api = await server((_hit, response, request) => (api.hits.length === 1 ? request.socket.destroy() : json(response, 429, {}, { 'retry-after': '600' })));
    const result = await client([createPet(api.url, { idempotency: { policy: 'auto' } })]).call('acme.createPet', { body: { name: 'rex' } });
    expect(failureOf(result)).toMatchObject({ category: 'OUTCOME_UNKNOWN', retryable: 'same_key_only', http_status: 429, trace: { attempts: 2 } });
  });

  it('sends the SHA-256 of the canonical arguments as a content_hash key, whatever the key order', async () => {
    const api = await server((_hit, response) => json(response, 201, {}));
    const ops = client([createPet(api.url, { idempotency: { policy: 'content_hash' } })]);
    await ops.call('acme.createPet', { body: { name: 'rex', age: 3 } });
    await ops.call('acme.createPet', { body: { age: 3, name: 'rex' } });
    const keys = api.hits.map((hit) => hit.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('answers too large to read', () => {
  const big = (size: number, chunked: boolean) => (response: import('node:http').ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(size) }) });
    // Written in pieces without a length when chunked: only counting what arrives can stop it.
    for (let sent = 0; sent < size; sent += 16_384) response.write('x'.repeat(Math.min(16_384, size - sent)));
    response.end();
  };

  it('stops reading a read past maxResponseBytes, declared or streamed, and never retries it', async () => {
    for (const chunked of [false, true]) {
      const api = await server((_hit, response) => big(300_000, chunked)(response));
      const result = await client([getPet(api.url)], { maxResponseBytes: 100_000 }).call('acme.getPet', { petId: 'p1' });
      expect(failureOf(result)).toMatchObject({ category: 'LIMIT_EXCEEDED', code: 'RESPONSE_TOO_LARGE', http_status: 200, retryable: 'after_remediation' });
      expect(api.hits).toHaveLength(1);
    }
  });

  it('tells a mutation whose 2xx answer was too large that the change was made, not an unknown outcome', async () => {
    const api = await server((_hit, response) => big(300_000, true)(response));
    const result = await client([createPet(api.url)], { maxResponseBytes: 100_000 }).call('acme.createPet', { body: { name: 'rex' } });
    const envelope = failureOf(result);
    expect(envelope).toMatchObject({ code: 'RESPONSE_TOO_LARGE', http_status: 200 });
    expect(envelope.remediation).toContain('the change was made');
    expect(api.hits).toHaveLength(1);
  });

  it('reads an answer just under the bound', async () => {
    const api = await server((_hit, response) => json(response, 200, { text: 'y'.repeat(1000) }));
    const result = await client([getPet(api.url)], { maxResponseBytes: 1100 }).call('acme.getPet', { petId: 'p1' });
    expect(result).toMatchObject({ ok: true, value: { text: 'y'.repeat(1000) } });
  });
});
