import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApplyResult, ConfirmationRequest } from '@nodwyn/plugin-api';
import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from './document-load.js';
import { PETS_FIXTURE } from './fixture.js';
import { openapiPlugin } from './index.js';
import { startMock, type MockServer } from './mock/mock-server.js';
import { openApiCommand } from './openapi-command.js';

let mock: MockServer;
let t: TestKernel;
let configDir: string;

const io = () => {
  const out: string[] = [];
  return { out, io: { stdin: process.stdin, write: (s: string) => out.push(s), error: (s: string) => out.push(s), interactive: false } };
};

beforeAll(async () => {
  mock = await startMock({ document: (await loadDocument(PETS_FIXTURE)).document });
  configDir = mkdtempSync(join(tmpdir(), 'nodwyn-openapi-home-'));
  const add = io();
  const code = await openApiCommand({ configDir, loaded: () => new Map(), keychain: () => undefined }).run({ args: ['add', PETS_FIXTURE], options: { name: 'pets', baseUrl: mock.url }, io: add.io });
  expect(code).toBe(0);
  t = await startTestKernel({ plugins: [openapiPlugin], configDir, dataDir: configDir });
});

afterAll(async () => {
  await t?.stop();
  await mock?.close();
});

function sent(operation: string) {
  return mock.requests().filter((r) => r.operation === operation);
}

describe('OpenAPI operations as guarded tools against nodwyn mock', () => {
  it('offers one tool per operation with tiers from the methods and x-agent', () => {
    const tools = new Map(t.kernel.primitives.list().filter((p) => p.owner === '@nodwyn/plugin-openapi').map((p) => [p.name, p]));
    expect([...tools.keys()].sort()).toEqual([
      'pets_create_order',
      'pets_create_pet',
      'pets_delete_pet',
      'pets_feed_pet',
      'pets_get_job',
      'pets_get_pet',
      'pets_list_pets',
      'pets_start_job',
      'pets_stream_events',
      'pets_walk_pet',
      'pets_watch_pet',
    ]);
    expect(tools.get('pets_get_pet')).toMatchObject({ tier: 'read', kind: 'fetch', egress: true });
    expect(tools.get('pets_delete_pet')).toMatchObject({ tier: 'destructive', kind: 'delete' });
    expect(tools.get('pets_create_pet')?.inputSchema).toMatchObject({ required: ['body'], properties: { body: { required: ['name'] } } });
  });

  it('retries a read after a 503 with Retry-After', async () => {
    mock.inject('status=503;retry-after=1;times=1', 'getPet');
    const before = sent('getPet').length;
    const started = Date.now();
    const result = await t.apply('pets_get_pet', { petId: 'p1' });
    expect(result).toMatchObject({ ok: true });
    expect(sent('getPet').length - before).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('makes an unkeyed POST whose connection dropped after the request OUTCOME_UNKNOWN, sent once', async () => {
    mock.inject('drop-after=0;times=1', 'createPet');
    const before = sent('createPet').length;
    const result = await t.apply('pets_create_pet', { body: { name: 'Rex' } });
    expect(result).toMatchObject({ ok: false, envelope: { category: 'OUTCOME_UNKNOWN', retryable: 'after_remediation' } });
    expect(sent('createPet').length - before).toBe(1);
  });

  it('re-sends a keyed POST with the same key after the connection dropped', async () => {
    mock.inject('drop-after=0;times=1', 'createOrder');
    const before = sent('createOrder').length;
    const result = await t.apply('pets_create_order', { body: { petId: 'p1', card_number: '4111111111111111' } });
    expect(result).toMatchObject({ ok: true });
    const orders = sent('createOrder').slice(before);
    expect(orders).toHaveLength(2);
    expect(orders[0]!.idempotency_key).toBeTruthy();
    expect(orders[1]!.idempotency_key).toBe(orders[0]!.idempotency_key);
    expect(orders[1]!.body_sha256).toBe(orders[0]!.body_sha256);
  });

  it('denies a destructive call without a person, and shows the effects when one is asked', async () => {
    const denied = await t.apply('pets_delete_pet', { petId: 'p1' });
    expect(denied).toMatchObject({ ok: false, envelope: { category: 'CONFIRMATION_REQUIRED' } });
    const asked: ConfirmationRequest[] = [];
    const granted = await t.apply('pets_delete_pet', { petId: 'p1' }, { confirm: { confirm: async (request) => (asked.push(request), true) } });
    expect(granted).toMatchObject({ ok: true });
    expect(asked[0]?.effects?.join('\n')).toContain('Deletes the pet and its adoption history.');
    expect(asked[0]?.effects?.[0]).toBe(`DELETE ${mock.url}/pets/p1`);
  });

  it('polls a verification read until its terminal state', async () => {
    const result = await t.apply('pets_start_job', { body: { petId: 'p1' } });
    expect(result.ok).toBe(true);
    const shown = JSON.parse(result.ok ? result.content : '{}') as { verification: { matched: boolean; state: unknown; polls: number } };
    expect(shown.verification).toMatchObject({ checked: true, matched: true, state: 'done' });
    expect(shown.verification.polls).toBeGreaterThanOrEqual(3);
  });

  it('refuses arguments the document does not allow before anything is sent', async () => {
    const before = mock.requests().length;
    const result = await t.apply('pets_list_pets', { limit: 1000 });
    expect(result).toMatchObject({ ok: false, envelope: { category: 'VALIDATION_FAILED' } });
    expect(mock.requests().length).toBe(before);
  });
});

type Collected = { events: { id?: string; event: string; data: { seq: number } }[]; reconnects: number };

function collected(result: ApplyResult): Collected {
  expect(result).toMatchObject({ ok: true });
  return JSON.parse(result.ok ? result.content : '{}') as Collected;
}

describe('streamed OpenAPI operations against nodwyn mock', () => {
  it('delivers every event of a dropped stream once, resuming with Last-Event-ID', async () => {
    mock.inject('drop-after=2;retry=20;times=1', 'streamEvents');
    const before = sent('streamEvents').length;
    const shown = collected(await t.apply('pets_stream_events', {}));
    expect(shown.events.map((e) => [e.id, e.event, e.data.seq])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [String(n), 'message', n]));
    expect(shown.reconnects).toBe(1);
    expect(sent('streamEvents').slice(before).map((r) => r.last_event_id)).toEqual([undefined, '2']);
  });

  it('resumes a stalled stream after its idle timeout', async () => {
    mock.inject('stall-after=3;ms=10000;retry=20;times=1', 'streamEvents');
    const before = sent('streamEvents').length;
    const started = Date.now();
    const shown = collected(await t.apply('pets_stream_events', {}));
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(shown.events.map((e) => e.data.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sent('streamEvents').slice(before).map((r) => r.last_event_id)).toEqual([undefined, '3']);
  });

  it('ends a stream that keeps breaking after 3 reconnects in an envelope saying what had arrived', async () => {
    mock.inject('drop-after=1;retry=10;times=4', 'streamEvents');
    const before = sent('streamEvents').length;
    const result = await t.apply('pets_stream_events', {});
    expect(result).toMatchObject({ ok: false, envelope: { category: 'TRANSPORT_FAILED', code: 'STREAM_BROKEN', operation: 'pets.streamEvents', trace: { attempts: 4 } } });
    expect(result.ok ? '' : result.envelope.remediation).toContain('4 events had arrived (the last with id 4)');
    expect(sent('streamEvents').slice(before).map((r) => r.last_event_id)).toEqual([undefined, '1', '2', '3']);
  });

  it('ends a stream past its collection budget in an envelope', async () => {
    const result = await t.apply('pets_watch_pet', { petId: 'p1' });
    expect(result).toMatchObject({ ok: false, envelope: { category: 'UNEXPECTED_RESPONSE', code: 'STREAM_COLLECT_LIMIT', failed_parameter: 'events' } });
    expect(result.ok ? '' : result.envelope.remediation).toContain('passed 100 bytes');
  });

  it('collects a streamed mutation, and never resends one without a key after a drop', async () => {
    expect(collected(await t.apply('pets_feed_pet', { petId: 'p1' })).events.map((e) => e.data.seq)).toEqual([1, 2, 3]);
    mock.inject('drop-after=1;retry=10;times=1', 'feedPet');
    const before = sent('feedPet').length;
    const result = await t.apply('pets_feed_pet', { petId: 'p1' });
    expect(result).toMatchObject({ ok: false, envelope: { category: 'OUTCOME_UNKNOWN', code: 'STREAM_BROKEN', retryable: 'after_remediation' } });
    expect(sent('feedPet').length - before).toBe(1);
  });

  it('resumes a keyed streamed mutation with the same key', async () => {
    mock.inject('drop-after=1;retry=10;times=1', 'walkPet');
    const before = sent('walkPet').length;
    expect(collected(await t.apply('pets_walk_pet', { petId: 'p1' })).events.map((e) => e.data.seq)).toEqual([1, 2, 3]);
    const walks = sent('walkPet').slice(before);
    expect(walks.map((r) => r.last_event_id)).toEqual([undefined, '1']);
    expect(walks[0]!.idempotency_key).toBeTruthy();
    expect(walks[1]!.idempotency_key).toBe(walks[0]!.idempotency_key);
  });
});
