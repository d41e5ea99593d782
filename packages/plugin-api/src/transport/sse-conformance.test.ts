import { describe, expect, it } from 'vitest';
import { sseEvents, type SseEvent } from './sse.js';

/**
 * The WHATWG HTML §9.2 "Parsing an event stream" rules, as the web-platform-tests `eventsource/format-*`
 * cases check them, written here as vectors: a body and the events a conforming parser dispatches.
 * Each body is read whole, split in two at every byte (so also inside a CRLF and inside a UTF-8
 * sequence), and one byte at a time; every reading must give the same events.
 */
interface Vector {
  readonly name: string;
  readonly body: string | Uint8Array;
  readonly events: readonly Partial<SseEvent>[];
}

const utf8 = new TextEncoder();
const bytesOf = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? utf8.encode(body) : body);
const comment = `:${'x'.repeat(2048)}`;

const VECTORS: readonly Vector[] = [
  { name: 'a BOM at the start is dropped', body: '\uFEFFdata:1\n\n\uFEFFdata:2\n\ndata:3\n\n', events: [{ data: '1' }, { data: '3' }] },
  { name: 'a second BOM is part of the first field name', body: '\uFEFF\uFEFFdata:1\n\ndata:2\n\ndata:3\n\n', events: [{ data: '2' }, { data: '3' }] },
  { name: 'BOM bytes split over chunks', body: Uint8Array.of(0xef, 0xbb, 0xbf, ...utf8.encode('data:a\n\n')), events: [{ data: 'a' }] },
  {
    name: 'comments anywhere, ended by CR, LF or CRLF, long or holding NUL',
    body: `data:1\r:\0\n:\r\ndata:2\n${comment}\rdata:3\n:data:fail\r${comment}\ndata:4\n\n`,
    events: [{ data: '1\n2\n3\n4' }],
  },
  { name: 'CR, LF and CRLF line ends, mixed', body: 'data:test\r\ndata\ndata:test\r\n\r', events: [{ data: 'test\n\ntest' }] },
  { name: 'CR line ends only', body: 'data:a\rdata:b\r\rdata:c\r\r', events: [{ data: 'a\nb' }, { data: 'c' }] },
  {
    name: 'field parsing: NUL kept in values, case-sensitive names, one space stripped, odd names ignored',
    body: 'data:\0\ndata:  2\rData:1\ndata\0:2\ndata:1\r\0data:4\nda-ta:3\rdata_5\ndata:3\rdata:\r\n data:32\ndata:4\n\n',
    events: [{ data: '\0\n 2\n1\n3\n\n4' }],
  },
  { name: 'a NUL character in data', body: 'data:\0\n\n', events: [{ data: '\0' }] },
  {
    name: 'data field: "data:" and "data" give empty lines; an empty buffer dispatches nothing',
    body: 'data:\n\ndata\ndata\n\ndata:test\n\n',
    events: [{ data: '' }, { data: '\n' }, { data: 'test' }],
  },
  { name: 'only one leading space is stripped', body: 'data:\u0020\u0020test\n\ndata:\ttab\n\n', events: [{ data: ' test' }, { data: '\ttab' }] },
  { name: 'unknown fields and bare text are ignored', body: 'data:test\n data\ndata\nfoobar:xxx\njustsometext\n:thisisacommentyay\ndata:test\n\n', events: [{ data: 'test\n\ntest' }] },
  { name: 'event sets the type for one event', body: 'event:test\ndata:x\n\ndata:y\n\n', events: [{ event: 'test', data: 'x' }, { event: 'message', data: 'y' }] },
  { name: 'an empty event field gives type message', body: 'event: \ndata:data\n\n', events: [{ event: 'message', data: 'data' }] },
  { name: 'an event field alone dispatches nothing and does not leak into the next event', body: 'event:ping\n\ndata:a\n\n', events: [{ event: 'message', data: 'a' }] },
  {
    name: 'id persists across events until an id field changes it',
    body: 'id:1\ndata:1\n\ndata:2\n\nid:2\ndata:3\n\ndata:4\n\n',
    events: [
      { data: '1', lastEventId: '1' },
      { data: '2', lastEventId: '1' },
      { data: '3', lastEventId: '2' },
      { data: '4', lastEventId: '2' },
    ],
  },
  { name: 'an empty id resets it', body: 'id:1\ndata:1\n\nid:\ndata:2\n\ndata:3\n\n', events: [{ lastEventId: '1' }, { lastEventId: '', data: '2' }, { lastEventId: '', data: '3' }] },
  { name: 'an id without colon resets it', body: 'id:1\ndata:1\n\nid\ndata:2\n\ndata:3\n\n', events: [{ lastEventId: '1' }, { lastEventId: '', data: '2' }, { lastEventId: '', data: '3' }] },
  { name: 'an id in a block without data still sets the buffer', body: 'id:7\n\ndata:a\n\n', events: [{ data: 'a', lastEventId: '7' }] },
  ...['\0\0', 'x\0', '\0x', 'x\0x', ' \0'].map((id) => ({
    name: `an id holding NUL (${JSON.stringify(id)}) is ignored`,
    body: `id: ${id}\ndata:hello\n\ndata:hello\n\n`,
    events: [{ data: 'hello', lastEventId: '' }, { data: 'hello', lastEventId: '' }],
  })),
  { name: 'an id holding NUL keeps the previous id', body: 'id:1\ndata:a\n\nid:2\0\ndata:b\n\n', events: [{ lastEventId: '1' }, { lastEventId: '1', data: 'b' }] },
  { name: 'retry with ASCII digits sets the reconnection time', body: 'retry:3000\ndata:x\n\n', events: [{ data: 'x', retry: 3000 }] },
  { name: 'a bogus retry is ignored, the earlier one stays', body: 'retry:3000\nretry:1000x\ndata:x\n\n', events: [{ data: 'x', retry: 3000 }] },
  { name: 'retry without a value is ignored', body: 'retry\ndata:test\n\n', events: [{ data: 'test', retry: undefined }] },
  {
    name: 'retry with a sign, a space inside, a decimal point or non-ASCII digits is ignored',
    body: 'retry:-1\nretry: 1 0\nretry:1.5\nretry:\u0661\u0662\ndata:x\n\n',
    events: [{ data: 'x', retry: undefined }],
  },
  { name: 'retry persists across events', body: 'retry:20\ndata:a\n\ndata:b\n\n', events: [{ retry: 20 }, { retry: 20, data: 'b' }] },
  { name: 'an event still open at the end is discarded', body: 'retry:1000\ndata:test1\n\nid:test\ndata:test2\n', events: [{ data: 'test1', lastEventId: '' }] },
  { name: 'a last line without its end is discarded', body: 'data:a\n\ndata:b', events: [{ data: 'a' }] },
  { name: 'UTF-8 data, multibyte characters', body: 'data:ok\u00e9\u20ac\u{1f600}\n\n', events: [{ data: 'ok\u00e9\u20ac\u{1f600}' }] },
  { name: 'invalid UTF-8 decodes to U+FFFD', body: Uint8Array.of(...utf8.encode('data:'), 0xc3, 0x28, 0xff, 0x0a, 0x0a), events: [{ data: '\uFFFD(\uFFFD' }] },
  { name: 'a body of comments only dispatches nothing', body: ':a\n:b\r\n\n\n', events: [] },
];

async function* chunks(parts: readonly Uint8Array[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield part;
}

async function decode(parts: readonly Uint8Array[]): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of sseEvents(chunks(parts))) events.push(event);
  return events;
}

// Fields a vector leaves out are not checked; `retry: undefined` checks that no retry was taken.
const expected = (vector: Vector) =>
  vector.events.map(({ retry, ...event }) => ({ event: 'message', ...event, ...(retry === undefined ? {} : { retry }) }));
const noRetry = (vector: Vector) => vector.events.some((event) => 'retry' in event && event.retry === undefined);

describe('the SSE decoder against the WHATWG event-stream parsing rules (WPT eventsource format-*)', () => {
  it.each(VECTORS.map((vector) => [vector.name, vector] as const))('%s', async (_name, vector) => {
    const bytes = bytesOf(vector.body);
    const want = expected(vector);
    const whole = await decode([bytes]);
    expect(whole).toMatchObject(want);
    if (noRetry(vector)) expect(whole.filter((event) => event.retry !== undefined)).toEqual([]);
    for (let cut = 1; cut < bytes.length; cut++) expect(await decode([bytes.slice(0, cut), bytes.slice(cut)])).toEqual(whole);
    expect(await decode([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(whole);
  });
});
