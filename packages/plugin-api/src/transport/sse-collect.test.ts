import { EnvelopeSchema } from '@nodwyn/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { dropAfterFlush, startEvents, testServer, type TestServer } from '../../test/loopback-server.js';
import { collectStream, type CollectResult } from './sse-collect.js';
import { resumableStream } from './sse-resume.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const open = (signal: AbortSignal) =>
  resumableStream({
    open: (lastEventId, attempt) => fetch(server!.url, { headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId }, signal: attempt }),
    safeToRepeat: true,
    done: '"[DONE]"',
    reconnectMaxMs: 10,
    signal,
  });

function failed(result: CollectResult) {
  if (result.ok) throw new Error('expected a failure');
  expect(EnvelopeSchema.parse(result.envelope)).toEqual(result.envelope);
  return result;
}

describe('collectStream', () => {
  it('collects every event with the reconnects, reporting progress per event across a reconnect', async () => {
    server = await testServer((req, res) => {
      startEvents(res);
      if (req.headers['last-event-id'] === undefined) {
        res.write('id: 1\ndata: "a"\n\nid: 2\ndata: "b"\n\n');
        dropAfterFlush(res);
      } else res.end('id: 3\ndata: "c"\n\ndata: "[DONE]"\n\n');
    });
    const progress: string[] = [];
    const result = await collectStream(open, { onEvent: (item, p) => void progress.push(`${String(item.value)} ${p.events}/${p.reconnects}`) });
    expect(result).toMatchObject({ ok: true, truncated: false, reconnects: 1 });
    expect(result.ok && result.events.map((e) => e.value)).toEqual(['a', 'b', 'c']);
    expect(progress).toEqual(['a 1/0', 'b 2/0', 'c 3/1']);
  });

  it('stops after 1000 events with truncated: true and closes the stream', async () => {
    server = await testServer((_req, res) => {
      startEvents(res);
      res.write(Array.from({ length: 1200 }, (_, i) => `data: ${i}\n\n`).join(''));
    });
    const result = await collectStream(open);
    expect(result).toMatchObject({ ok: true, truncated: true, reconnects: 0 });
    expect(result.ok && result.events).toHaveLength(1000);
    expect(result.ok && result.events.at(-1)?.value).toBe(999);
    await expect.poll(() => server!.requests[0]!.closed).toBe(true);
  });

  it('fails past maxBytes of event JSON with the events before as partial', async () => {
    server = await testServer((_req, res) => {
      startEvents(res);
      res.end(`${Array.from({ length: 20 }, (_, i) => `data: "${String(i).padStart(8, '0')}"\n\n`).join('')}data: "[DONE]"\n\n`);
    });
    const { envelope, partial } = failed(await collectStream(open, { maxBytes: 50 }));
    expect(envelope).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'STREAM_COLLECT_LIMIT', failed_parameter: 'events' });
    // Each event is 10 bytes of JSON: five fit in 50, the sixth passes.
    expect(partial.map((e) => e.value)).toEqual(['00000000', '00000001', '00000002', '00000003', '00000004']);
  });

  it('fails after maxMs, whatever the idle timeout, and closes the connection', async () => {
    server = await testServer((_req, res) => {
      startEvents(res);
      res.write('data: 1\n\n');
    });
    const { envelope, partial } = failed(await collectStream(open, { maxMs: 150 }));
    expect(envelope.remediation).toContain('150 ms');
    expect(partial.map((e) => e.value)).toEqual([1]);
    await expect.poll(() => server!.requests[0]!.closed).toBe(true);
  });

  it("returns the stream's own failure with what was gathered before it", async () => {
    server = await testServer((_req, res) => {
      startEvents(res);
      res.write('data: 1\n\n');
      dropAfterFlush(res);
    });
    const { envelope, partial } = failed(await collectStream(open));
    expect(envelope).toMatchObject({ code: 'STREAM_BROKEN' });
    expect(partial.map((e) => e.value)).toEqual([1]);
  });
});
