import { isEnvelopeError, type Envelope } from '@nodwyn/plugin-api';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicFactory, drain, request } from './plugin-context.js';
import { startSseServer, textAnswer, TEXT_END, type SseServer } from './sse-server.js';

const OVERLOADED: readonly [string, unknown] = ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }];
const FAST = { retry_base_ms: '1', retry_max_ms: '50', model: 'claude-haiku-4-5' };

let server: SseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function envelopeOf(error: unknown): Envelope {
  if (!isEnvelopeError(error)) throw new Error(`expected an envelope error, got ${String(error)}`);
  return error.envelope;
}

describe('a 200 answer that is not an event stream', () => {
  it('fails with UNEXPECTED_RESPONSE STREAM_NOT_SSE naming the content type, without retrying', async () => {
    let calls = 0;
    const json = async () => {
      calls += 1;
      return new Response('{"type":"message","content":[]}', { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_json' } });
    };
    const provider = await (await anthropicFactory()).create({ ...FAST, base_url: 'http://127.0.0.1:9' });
    const { error } = await drain(provider.stream(request([{ role: 'user', text: 'hi' }], json, 3), new AbortController().signal));
    const envelope = envelopeOf(error);
    expect([envelope.category, envelope.code, envelope.received_value, envelope.request_id]).toEqual(['UNEXPECTED_RESPONSE', 'STREAM_NOT_SSE', 'application/json', 'req_json']);
    expect(calls).toBe(1);
  });
});

describe('an error event inside a 200 stream', () => {
  it('before any content is retried like a 529: one retry event, two requests, then the answer', async () => {
    server = await startSseServer([{ events: [...textAnswer([]).slice(0, 1), ['ping', { type: 'ping' }], OVERLOADED] }, { events: [...textAnswer(['fine']), ...TEXT_END] }]);
    const provider = await (await anthropicFactory()).create({ ...FAST, base_url: server.url });
    const { events, error } = await drain(provider.stream(request([{ role: 'user', text: 'hi' }], undefined, 3), new AbortController().signal));
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'retry')).toEqual([{ type: 'retry', attempt: 2, delayMs: expect.any(Number), reason: 'OVERLOADED (HTTP 200)' }]);
    expect(events.filter((e) => e.type === 'text')).toEqual([{ type: 'text', text: 'fine' }]);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'end_turn' });
    expect(server.requests).toHaveLength(2);
  });

  it('after content ends the call with STREAM_BROKEN, keeps the text that arrived, and is not replayed', async () => {
    server = await startSseServer([{ events: textAnswer(['par', 'tial'], [OVERLOADED]) }, { events: [...textAnswer(['replayed']), ...TEXT_END] }]);
    const provider = await (await anthropicFactory()).create({ ...FAST, base_url: server.url });
    const { events, error } = await drain(provider.stream(request([{ role: 'user', text: 'hi' }], undefined, 3), new AbortController().signal));
    const envelope = envelopeOf(error);
    expect([envelope.category, envelope.code, envelope.retryable, envelope.trace.attempts]).toEqual(['TRANSPORT_FAILED', 'STREAM_BROKEN', 'after_remediation', 1]);
    expect(envelope.remediation).toContain('OVERLOADED');
    expect(events.map((e) => (e.type === 'text' ? e.text : e.type))).toEqual(['par', 'tial']);
    expect(server.requests).toHaveLength(1);
  });

  it('ends a body that stops before message_stop with STREAM_INCOMPLETE when nothing arrived, after the retries', async () => {
    const cut = { events: textAnswer([]).slice(0, 2) };
    server = await startSseServer([cut, cut]);
    const provider = await (await anthropicFactory()).create({ ...FAST, base_url: server.url, max_attempts: '2' });
    const { error } = await drain(provider.stream(request([{ role: 'user', text: 'hi' }], undefined, 3), new AbortController().signal));
    const envelope = envelopeOf(error);
    expect([envelope.category, envelope.code, envelope.trace.attempts]).toEqual(['TRANSPORT_FAILED', 'STREAM_INCOMPLETE', 2]);
    expect(server.requests).toHaveLength(2);
  });
});
