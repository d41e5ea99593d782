import { describe, expect, it } from 'vitest';
import { isEnvelopeError } from '../envelope.js';
import { parseEventJson, sseEvents, type SseEvent, type SseOptions } from './sse.js';

const utf8 = new TextEncoder();

async function* chunksOf(parts: readonly (string | Uint8Array)[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? utf8.encode(part) : part;
}

async function read(parts: readonly (string | Uint8Array)[], options?: SseOptions): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of sseEvents(chunksOf(parts), options)) events.push(event);
  return events;
}

const message = (data: string, lastEventId = ''): SseEvent => ({ event: 'message', data, lastEventId });

describe('sseEvents (WHATWG HTML §9.2)', () => {
  it.each([
    ['LF', 'data: a\n\ndata: b\n\n'],
    ['CR', 'data: a\r\rdata: b\r\r'],
    ['CRLF', 'data: a\r\n\r\ndata: b\r\n\r\n'],
    ['mixed', 'data: a\r\n\ndata: b\r\r\n'],
  ])('splits lines on %s', async (_name, text) => {
    expect(await read([text])).toEqual([message('a'), message('b')]);
  });

  it('reads a CRLF split across two chunks as one line end, not two', async () => {
    // Were the split CRLF two line ends, the LF would be a blank line and dispatch "a" alone.
    expect(await read(['data: a\r', '\ndata: b\r\n\r\n'])).toEqual([message('a\nb')]);
  });

  it('dispatches on a CR that ends the body, without waiting for an LF that never comes', async () => {
    expect(await read(['data: a\r\r'])).toEqual([message('a')]);
  });

  it('reads a body delivered one byte at a time', async () => {
    const bytes = utf8.encode('event: e\r\nid: 7\r\ndata: ü€😀\r\n\r\n');
    expect(await read([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual([{ event: 'e', data: 'ü€😀', lastEventId: '7' }]);
  });

  it('ignores comment lines, including one between the lines of an event', async () => {
    expect(await read([': keep-alive\n\ndata: a\n:comment\ndata: b\n\n'])).toEqual([message('a\nb')]);
  });

  it('joins multi-line data with LF and strips exactly one leading space', async () => {
    expect(await read(['data:  two\ndata:none\ndata: \ndata\n\n'])).toEqual([message(' two\nnone\n\n')]);
  });

  it('reads a field without a colon as the field name with an empty value', async () => {
    expect(await read(['data\n\n'])).toEqual([message('')]);
  });

  it('does not dispatch an event whose data buffer is empty, and resets its type', async () => {
    expect(await read(['event: ping\n\nid: 3\n\n: only a comment\n\ndata: x\n\n'])).toEqual([message('x', '3')]);
  });

  it("defaults the event type to 'message', also for an empty event field", async () => {
    expect(await read(['event: delta\ndata: 1\n\nevent:\ndata: 2\n\ndata: 3\n\n'])).toEqual([
      { event: 'delta', data: '1', lastEventId: '' },
      message('2'),
      message('3'),
    ]);
  });

  it('keeps the last event id across events until an id field changes it', async () => {
    const events = await read(['id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 2\n\ndata: d\n\n']);
    expect(events.map((event) => event.lastEventId)).toEqual(['1', '1', '', '2']);
  });

  it('ignores an id that contains NULL', async () => {
    expect(await read(['id: 1\ndata: a\n\nid: 2\u0000x\ndata: b\n\n'])).toEqual([message('a', '1'), message('b', '1')]);
  });

  it('takes the retry field only when it is all ASCII digits, and keeps it for later events', async () => {
    const events = await read(['retry: 1500\ndata: a\n\nretry: 20x\ndata: b\n\nretry: -1\nretry:  7\nretry: 300\ndata: c\n\n']);
    expect(events.map((event) => event.retry)).toEqual([1500, 1500, 300]);
  });

  it('ignores unknown fields', async () => {
    expect(await read(['foo: bar\ndata: a\nDATA: b\n\n'])).toEqual([message('a')]);
  });

  it('discards an event left open at the end of the body', async () => {
    expect(await read(['data: a\n\ndata: b\n'])).toEqual([message('a')]);
    expect(await read(['data: a\n\ndata: b'])).toEqual([message('a')]);
  });

  it('drops a leading BOM, also when it is split over chunks, and only once', async () => {
    expect(await read(['\uFEFFdata: a\n\n'])).toEqual([message('a')]);
    expect(await read([Uint8Array.of(0xef), Uint8Array.of(0xbb, 0xbf), 'data: a\n\n'])).toEqual([message('a')]);
    // A second BOM is part of the first field name, which makes it an unknown field.
    expect(await read(['\uFEFF\uFEFFdata: a\n\ndata: b\n\n'])).toEqual([message('b')]);
  });

  it('does not cut text that starts with the characters "ï»¿" (no second BOM rule underneath)', async () => {
    expect(await read(['ï»¿data: a\n\ndata: b\n\n'])).toEqual([message('b')]);
  });

  it('decodes a multibyte character split across chunks', async () => {
    const bytes = utf8.encode('data: 😀é\n\n');
    expect(await read([bytes.slice(0, 8), bytes.slice(8, 11), bytes.slice(11)])).toEqual([message('😀é')]);
  });

  it('replaces invalid UTF-8 with U+FFFD instead of failing', async () => {
    expect(await read([Uint8Array.of(0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a)])).toEqual([message('\uFFFD')]);
  });

  it('delivers the events before an oversized one, then ends with SSE_EVENT_TOO_LARGE', async () => {
    const events: SseEvent[] = [];
    const body = chunksOf(['data: ok\n\n', `data: ${'x'.repeat(64)}\n\n`, 'data: never\n\n']);
    const error = await (async () => {
      for await (const event of sseEvents(body, { maxEventBytes: 32, provider: 'anthropic', operation: 'model.stream' })) events.push(event);
    })().catch((caught: unknown) => caught);
    expect(events).toEqual([message('ok')]);
    expect(isEnvelopeError(error) && error.envelope).toMatchObject({
      category: 'UNEXPECTED_RESPONSE',
      code: 'SSE_EVENT_TOO_LARGE',
      failed_parameter: 'events[1]',
      expected: 'an event of at most 32 bytes',
      plugin: 'anthropic',
    });
  });

  it('counts UTF-8 bytes, not characters, and counts a line still being read', async () => {
    // "data: " + 10 × "é" is 16 characters but 26 bytes (+1 for the line end).
    await expect(read([`data: ${'é'.repeat(10)}\n\n`], { maxEventBytes: 20 })).rejects.toMatchObject({ envelope: { code: 'SSE_EVENT_TOO_LARGE' } });
    await expect(read([`data: ${'é'.repeat(10)}\n\n`], { maxEventBytes: 27 })).resolves.toEqual([message('é'.repeat(10))]);
    await expect(read(['data: ', 'x'.repeat(100)], { maxEventBytes: 50 })).rejects.toMatchObject({ envelope: { code: 'SSE_EVENT_TOO_LARGE' } });
  });

  it('does not count comments or earlier events against the limit', async () => {
    const keepAlives = ': ping\n\n'.repeat(20);
    expect(await read([keepAlives, 'data: a\n\n'.repeat(20), `: ${'c'.repeat(100)}\ndata: b\n\n`], { maxEventBytes: 16 })).toHaveLength(21);
  });

  it('stops reading the body when the caller stops early', async () => {
    let pulled = 0;
    async function* endless(): AsyncIterable<Uint8Array> {
      for (let i = 0; i < 1000; i++) {
        pulled += 1;
        yield utf8.encode(`data: ${i}\n\n`);
      }
    }
    for await (const event of sseEvents(endless())) if (event.data === '2') break;
    expect(pulled).toBe(3);
  });

  it('reads a ReadableStream body', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(utf8.encode('data: {"a":1}\n\n'));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    for await (const event of sseEvents(body)) events.push(event);
    expect(events).toEqual([message('{"a":1}')]);
  });
});

describe('parseEventJson', () => {
  const context = { provider: 'openai', operation: 'model.stream' };

  it('parses JSON data', () => {
    expect(parseEventJson(message('{"a":[1]}'), context)).toEqual({ a: [1] });
  });

  it('turns malformed data into SSE_EVENT_MALFORMED naming the event type and quoting at most ~100 chars', () => {
    const data = `{"broken": ${'y'.repeat(500)}`;
    let caught: unknown;
    try {
      parseEventJson({ event: 'content_block_delta', data, lastEventId: '' }, context);
    } catch (error) {
      caught = error;
    }
    expect(isEnvelopeError(caught)).toBe(true);
    const env = isEnvelopeError(caught) ? caught.envelope : undefined;
    expect(env).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'SSE_EVENT_MALFORMED', retryable: 'never', plugin: 'openai' });
    expect(env?.remediation).toContain('`content_block_delta`');
    expect(env?.received_value?.length).toBeLessThanOrEqual(101);
  });
});
