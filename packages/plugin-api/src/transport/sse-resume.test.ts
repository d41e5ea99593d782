import { EnvelopeSchema, type Envelope } from '@nodwyn/protocol';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { dropAfterFlush, startEvents, testServer, type TestServer } from '../../test/loopback-server.js';
import { resumableStream, type ResumableStreamOptions, type StreamItem, type StreamOutcome } from './sse-resume.js';

const EVENTS = 6;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Writes events `from`..`to` (1-based ids, data `{"n":id}`). */
function writeEvents(res: ServerResponse, from: number, to: number): void {
  for (let n = from; n <= to; n++) res.write(`id: ${n}\ndata: {"n":${n}}\n\n`);
}

/** Every outcome of a stream over the test server, with fast reconnects by default. */
async function run(options: Partial<ResumableStreamOptions> = {}): Promise<{ items: StreamItem[]; failure?: Envelope; outcomes: StreamOutcome[] }> {
  const url = server!.url;
  const outcomes: StreamOutcome[] = [];
  const stream = resumableStream({
    open: (lastEventId, signal) => fetch(url, { headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId }, signal }),
    safeToRepeat: true,
    done: '"[DONE]"',
    reconnectMaxMs: 20,
    operation: 'acme.watch',
    plugin: 'openapi',
    ...options,
  });
  for await (const outcome of stream) outcomes.push(outcome);
  const items = outcomes.filter((o): o is StreamItem => !('failure' in o));
  const failures = outcomes.filter((o) => 'failure' in o);
  expect(failures.length).toBeLessThanOrEqual(1);
  if (failures[0]) {
    expect(outcomes.at(-1)).toBe(failures[0]);
    expect(EnvelopeSchema.parse(failures[0].failure)).toEqual(failures[0].failure);
  }
  return { items, outcomes, ...(failures[0] ? { failure: failures[0].failure } : {}) };
}

const values = (items: readonly StreamItem[]) => items.map((item) => (item.value as { n: number }).n);

describe('resumableStream', () => {
  it('resumes a dropped stream with Last-Event-ID and delivers every event once', async () => {
    server = await testServer((req, res) => {
      const after = Number(req.headers['last-event-id'] ?? 0);
      startEvents(res);
      const to = Math.min(after + 2, EVENTS);
      writeEvents(res, after + 1, to);
      if (to === EVENTS) res.end('data: "[DONE]"\n\n');
      else dropAfterFlush(res);
    });
    const { items, failure } = await run();
    expect(failure).toBeUndefined();
    expect(values(items)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(server.requests.map((r) => r.lastEventId)).toEqual([undefined, '2', '4']);
    expect(items.map((item) => item.reconnects)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(items.map((item) => item.id)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('skips the events a server that ignores Last-Event-ID replays, until the first new one', async () => {
    server = await testServer((_req, res, n) => {
      startEvents(res);
      const to = Math.min(2 * (n + 1), EVENTS);
      writeEvents(res, 1, to);
      if (to === EVENTS) res.end('data: "[DONE]"\n\n');
      else dropAfterFlush(res);
    });
    const { items, failure } = await run();
    expect(failure).toBeUndefined();
    expect(values(items)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(server.requests).toHaveLength(3);
  });

  it('reconnects after a clean end before the declared done event, and not when none is declared', async () => {
    server = await testServer((req, res) => {
      const after = Number(req.headers['last-event-id'] ?? 0);
      startEvents(res);
      writeEvents(res, after + 1, after + 1);
      res.end(after + 1 === 3 ? 'data: "[DONE]"\n\n' : undefined);
    });
    expect(values((await run()).items)).toEqual([1, 2, 3]);
    const requestsBefore = server.requests.length;
    const { items, failure } = await run({ done: undefined });
    expect([values(items), failure, server.requests.length - requestsBefore]).toEqual([[1], undefined, 1]);
  });

  it('carries id and retry over a reconnect and waits the server retry, capped', async () => {
    server = await testServer((_req, res, n) => {
      startEvents(res);
      if (n === 0) {
        res.write('retry: 60000\nid: 7\ndata: {"n":1}\n\n');
        dropAfterFlush(res);
      } else res.end('data: {"n":2}\n\ndata: "[DONE]"\n\n');
    });
    const started = Date.now();
    const { items } = await run({ reconnectMaxMs: 50 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(items).toEqual([
      { value: { n: 1 }, event: 'message', id: '7', retry: 60000, reconnects: 0 },
      { value: { n: 2 }, event: 'message', id: '7', retry: 60000, reconnects: 1 },
    ]);
  });

  it('ends with the last drop, saying how many reconnects were made, when they are used up', async () => {
    server = await testServer((req, res) => {
      const after = Number(req.headers['last-event-id'] ?? 0);
      startEvents(res);
      writeEvents(res, after + 1, after + 1);
      dropAfterFlush(res);
    });
    const { items, failure, outcomes } = await run();
    expect(values(items)).toEqual([1, 2, 3, 4]);
    expect(server.requests).toHaveLength(4);
    expect(failure).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'STREAM_BROKEN', operation: 'acme.watch', plugin: 'openapi' });
    expect(failure?.remediation).toContain('reconnected 3 times');
    expect(outcomes.at(-1)).toMatchObject({ reconnects: 3 });
  });

  it('does not reconnect when maxReconnects is 0, nor without an id to resume from once events were delivered', async () => {
    server = await testServer((_req, res) => {
      startEvents(res);
      res.write('data: {"n":1}\n\n');
      dropAfterFlush(res);
    });
    expect((await run()).failure).toMatchObject({ code: 'STREAM_BROKEN' });
    expect(server.requests).toHaveLength(1);
    expect((await run({ maxReconnects: 0 })).failure).toMatchObject({ code: 'STREAM_BROKEN' });
    expect(server.requests).toHaveLength(2);
  });

  it('never repeats a mutation without replay protection: the drop is OUTCOME_UNKNOWN', async () => {
    server = await testServer((_req, res) => {
      startEvents(res);
      writeEvents(res, 1, 1);
      dropAfterFlush(res);
    });
    const { items, failure } = await run({ safeToRepeat: false, mutation: true });
    expect(values(items)).toEqual([1]);
    expect(server.requests).toHaveLength(1);
    expect(failure).toMatchObject({ category: 'OUTCOME_UNKNOWN', code: 'STREAM_BROKEN', retryable: 'after_remediation' });
  });

  it('treats an idle stream like a drop, and ends with STREAM_IDLE when it cannot resume', async () => {
    server = await testServer((_req, res) => {
      startEvents(res);
      writeEvents(res, 1, 1);
    });
    const read = await run({ idleTimeoutMs: 100, maxReconnects: 1 });
    expect(values(read.items)).toEqual([1]);
    expect(server.requests.map((r) => r.lastEventId)).toEqual([undefined, '1']);
    expect(read.failure).toMatchObject({ category: 'UPSTREAM_UNAVAILABLE', code: 'STREAM_IDLE' });
    expect(read.failure?.remediation).toContain('reconnected 1 time,');
    const write = await run({ idleTimeoutMs: 100, safeToRepeat: false, mutation: true });
    expect(write.failure).toMatchObject({ category: 'OUTCOME_UNKNOWN', code: 'STREAM_IDLE' });
    await expect.poll(() => server!.requests.every((r) => r.closed)).toBe(true);
  });

  it('counts comment bytes as sound: a stream kept alive by comments is not idle', async () => {
    server = await testServer((_req, res) => {
      startEvents(res);
      let beats = 0;
      const beat = setInterval(() => {
        beats += 1;
        if (beats < 8) return void res.write(': keep-alive\n\n');
        clearInterval(beat);
        res.end('data: {"n":1}\n\ndata: "[DONE]"\n\n');
      }, 30);
    });
    const { items, failure } = await run({ idleTimeoutMs: 150 });
    expect([values(items), failure, server.requests.length]).toEqual([[1], undefined, 1]);
  });

  it('ends with UNEXPECTED_RESPONSE events[N] at an event over the byte limit', async () => {
    server = await testServer((_req, res) => {
      startEvents(res);
      res.end(`id: 1\ndata: {"n":1}\n\nid: 2\ndata: "${'x'.repeat(500)}"\n\n`);
    });
    const { items, failure } = await run({ maxEventBytes: 128 });
    expect(values(items)).toEqual([1]);
    expect(failure).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'SSE_EVENT_TOO_LARGE', failed_parameter: 'events[1]', expected: 'an event of at most 128 bytes' });
  });

  it('ends with an envelope for data that is not JSON, an answer that is not an event stream, and an error status', async () => {
    server = await testServer((_req, res, n) => {
      if (n === 0) {
        startEvents(res);
        return void res.end('data: {"n":1}\n\ndata: {oops\n\n');
      }
      if (n === 1) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"n":1}');
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' }).end('{"error":{"code":"busy","message":"Bearer abc.def leaked"}}');
    });
    expect((await run()).failure).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'SSE_EVENT_MALFORMED', failed_parameter: 'events[1]' });
    expect((await run()).failure).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'SSE_NOT_EVENT_STREAM', http_status: 200 });
    const status = (await run()).failure;
    expect(status).toMatchObject({ category: 'UPSTREAM_UNAVAILABLE', http_status: 503, retry_after_ms: 2000 });
    expect(JSON.stringify(status)).not.toContain('abc.def');
  });

  it('ends with the reconnect failure when a reconnect is answered with an error status', async () => {
    server = await testServer((_req, res, n) => {
      if (n === 1) return void res.writeHead(404).end();
      startEvents(res);
      writeEvents(res, 1, 1);
      dropAfterFlush(res);
    });
    const { items, failure } = await run();
    expect(values(items)).toEqual([1]);
    expect(failure).toMatchObject({ category: 'NOT_FOUND', http_status: 404 });
    expect(failure?.remediation).toContain('reconnect 1');
  });

  it('a mutation answered 5xx is OUTCOME_UNKNOWN; a connection refused is an envelope too', async () => {
    server = await testServer((_req, res) => void res.writeHead(502).end());
    expect((await run({ mutation: true })).failure).toMatchObject({ category: 'OUTCOME_UNKNOWN', http_status: 502, retryable: 'same_key_only' });
    const url = server.url;
    await server.close();
    server = undefined;
    const outcomes: StreamOutcome[] = [];
    for await (const outcome of resumableStream({ open: (_id, signal) => fetch(url, { signal }), safeToRepeat: true })) outcomes.push(outcome);
    expect(outcomes).toEqual([{ failure: expect.objectContaining({ category: 'TRANSPORT_FAILED', code: 'CONNECTION_FAILED' }), reconnects: 0 }]);
  });

  it('ends for good without a failure item when the caller aborts, and closes the connection', async () => {
    server = await testServer((_req, res) => {
      startEvents(res);
      writeEvents(res, 1, 2);
    });
    const caller = new AbortController();
    const outcomes: StreamOutcome[] = [];
    const url = server.url;
    for await (const outcome of resumableStream({ open: (_id, signal) => fetch(url, { signal }), safeToRepeat: true, done: '"[DONE]"', signal: caller.signal })) {
      outcomes.push(outcome);
      if (outcomes.length === 2) setTimeout(() => caller.abort(), 20);
    }
    expect(outcomes.map((o) => ('failure' in o ? 'failure' : 'item'))).toEqual(['item', 'item']);
    expect(server.requests).toHaveLength(1);
    await expect.poll(() => server!.requests[0]!.closed).toBe(true);
  });
});
