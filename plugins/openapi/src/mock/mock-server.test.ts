import { afterEach, describe, expect, it } from 'vitest';
import { loadDocument } from '../document-load.js';
import { PETS_FIXTURE } from '../fixture.js';
import { startMock, type MockServer } from './mock-server.js';

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function pets(inject: string[] = []): Promise<MockServer> {
  const { document } = await loadDocument(PETS_FIXTURE);
  mock = await startMock({ document, inject });
  return mock;
}

describe('nodwyn mock', () => {
  it('answers generated bodies under the server path, and 404/405/400 like a real server', async () => {
    const m = await pets();
    expect(m.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const pet = await fetch(`${m.url}/pets/p1`);
    expect(pet.status).toBe(200);
    expect(await pet.json()).toMatchObject({ id: 'pet-1' });
    expect((await fetch(`${m.url}/nothing`)).status).toBe(404);
    expect((await fetch(`${m.url}/pets/p1`, { method: 'PUT' })).status).toBe(405);
    expect((await fetch(`${m.url}/pets?limit=many`)).status).toBe(400);
    expect((await fetch(`${m.url}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await fetch(`${m.url}/pets/p1`, { method: 'DELETE' })).status).toBe(204);
  });

  it('injects a 503 with Retry-After once, scoped to an operation, and logs what it received', async () => {
    const m = await pets(['getPet:status=503;retry-after=1;times=1']);
    const first = await fetch(`${m.url}/pets/p1`);
    expect([first.status, first.headers.get('retry-after')]).toEqual([503, '1']);
    expect((await fetch(`${m.url}/pets/p1`)).status).toBe(200);
    expect((await fetch(`${m.url}/pets`)).status).toBe(200);
    const log = m.requests();
    expect(log.map((r) => r.operation)).toEqual(['getPet', 'getPet', 'listPets']);
  });

  it('resets or drops a connection after reading the request, and records its key and body digest', async () => {
    const m = await pets();
    await fetch(`${m.url}/__mock/inject`, { method: 'POST', body: JSON.stringify({ operation: 'createOrder', inject: 'drop-after=0;times=1' }) });
    const send = () => fetch(`${m.url}/orders`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' }, body: '{"petId":"p1"}' });
    await expect(send()).rejects.toThrow();
    expect((await send()).status).toBe(201);
    await expect(fetch(`${m.url}/pets/p1`, { headers: { 'x-mock-inject': 'reset' } })).rejects.toThrow();
    const log = (await (await fetch(`${m.url}/__mock/requests`)).json()) as { idempotency_key?: string; body_sha256?: string }[];
    expect(log.filter((r) => r.idempotency_key === 'k-1')).toHaveLength(2);
    expect(new Set(log.filter((r) => r.idempotency_key === 'k-1').map((r) => r.body_sha256)).size).toBe(1);
  });

  it('streams numbered events, resumes after Last-Event-ID and breaks after drop-after', async () => {
    const m = await pets();
    const all = await (await fetch(`${m.url}/events`)).text();
    expect(all.match(/^id: \d+$/gm)).toEqual(['id: 1', 'id: 2', 'id: 3', 'id: 4', 'id: 5', 'id: 6']);
    expect(all).toContain('data: [DONE]');
    const resumed = await (await fetch(`${m.url}/events`, { headers: { 'last-event-id': '4' } })).text();
    expect(resumed.match(/^id: \d+$/gm)).toEqual(['id: 5', 'id: 6']);
    const dropped = await fetch(`${m.url}/events`, { headers: { 'x-mock-inject': 'drop-after=2;retry=50' } });
    await expect(dropped.text()).rejects.toThrow();
  });

  it('ends a stream without a declared done sentinel cleanly after its events', async () => {
    const events = { 'text/event-stream': { schema: { type: 'object', properties: { n: { type: 'integer' } } }, 'x-mock-events': 2 } };
    const document = { openapi: '3.0.3', info: { title: 'ticks', version: '1' }, paths: { '/ticks': { get: { operationId: 'ticks', responses: { '200': { description: 'ticks', content: events } } } } } };
    mock = await startMock({ document });
    const text = await (await fetch(`${mock.url}/ticks`)).text();
    expect(text.match(/^id: \d+$/gm)).toEqual(['id: 1', 'id: 2']);
    expect(text).not.toContain('[DONE]');
  });

  it('answers x-mock-sequence entries in order, the last one repeating', async () => {
    const m = await pets();
    const states: unknown[] = [];
    for (let i = 0; i < 4; i += 1) states.push(((await (await fetch(`${m.url}/jobs/job-1`)).json()) as { status: string }).status);
    expect(states).toEqual(['queued', 'running', 'done', 'done']);
  });

  it('refuses a malformed injection with an envelope', async () => {
    const m = await pets();
    const answer = await fetch(`${m.url}/__mock/inject`, { method: 'POST', body: JSON.stringify({ inject: 'explode=1' }) });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: 'MOCK_INJECT_INVALID' } });
  });
});
