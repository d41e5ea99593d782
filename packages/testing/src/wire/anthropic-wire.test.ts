import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { startWireServer } from './wire-server.js';

const PARAMS = { model: 'claude-sonnet-4-6', max_tokens: 256, messages: [{ role: 'user' as const, content: 'hi' }] };

function client(url: string): Anthropic {
  return new Anthropic({ apiKey: 'wire-test-key', baseURL: url, maxRetries: 0 });
}

describe('the anthropic wire server, read by the official SDK', () => {
  it('streams thinking, text and parallel tool calls that MessageStream assembles into the final message', async () => {
    const server = await startWireServer('anthropic', [
      {
        kind: 'stream',
        thinking: ['Let me ', 'look.'],
        text: ['Reading ', 'both.'],
        toolCalls: [
          { id: 'toolu_01A', name: 'read_file', argsFragments: ['{"pa', 'th": "a.txt"}'] },
          { id: 'toolu_01B', name: 'read_file', argsFragments: ['{"path": ', '"b.txt"}'] },
        ],
        usage: { input: 100, output: 20, cache_read: 30, cache_write: 5 },
      },
    ]);
    try {
      const stream = client(server.url).messages.stream(PARAMS);
      const message = await stream.finalMessage();
      expect(message.content).toEqual([
        { type: 'thinking', thinking: 'Let me look.', signature: expect.any(String) },
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: { path: 'a.txt' } },
        { type: 'tool_use', id: 'toolu_01B', name: 'read_file', input: { path: 'b.txt' } },
      ]);
      expect(message).toMatchObject({ model: 'claude-sonnet-4-6', stop_reason: 'tool_use', usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 30, cache_creation_input_tokens: 5 } });
      expect(stream.request_id).toBe(server.requests[0]?.requestId);
      const headers = server.requests[0]!.headers;
      expect(headers['x-api-key'] === 'wire-test-key' || headers.authorization === 'Bearer wire-test-key').toBe(true);
      expect(headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(server.requests[0]!.body).toMatchObject({ model: 'claude-sonnet-4-6', stream: true });
    } finally {
      await server.close();
    }
  });

  it('names every event after its data type, pings after the first block starts, and ends with message_stop', async () => {
    const server = await startWireServer('anthropic', [{ kind: 'stream', text: ['a', 'b'] }]);
    try {
      const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...PARAMS, stream: true }) });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(response.headers.get('request-id')).toBe(server.requests[0]?.requestId);
      const events = (await response.text()).trim().split('\n\n').map((frame) => {
        const [event, data] = frame.split('\n');
        return { event: event!.slice('event: '.length), type: (JSON.parse(data!.slice('data: '.length)) as { type: string }).type };
      });
      expect(events.every((e) => e.event === e.type)).toBe(true);
      expect(events.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    } finally {
      await server.close();
    }
  });

  it('answers errors with the documented body, status and headers, which the SDK reads as its typed errors', async () => {
    const server = await startWireServer('anthropic', [
      { kind: 'error', status: 429, headers: { 'retry-after': '7' } },
      { kind: 'error', status: 529 },
      { kind: 'error', status: 401 },
    ]);
    try {
      const api = client(server.url);
      const limited = await api.messages.create({ ...PARAMS, stream: true }).then(() => undefined, (e: unknown) => e);
      expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
      const rate = limited as InstanceType<typeof Anthropic.RateLimitError>;
      expect(rate.headers.get('retry-after')).toBe('7');
      expect(rate.requestID).toBe(server.requests[0]?.requestId);
      expect(rate.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' }, request_id: server.requests[0]?.requestId });
      const overloaded = await api.messages.create({ ...PARAMS, stream: true }).then(() => undefined, (e: unknown) => e);
      expect(overloaded).toMatchObject({ status: 529, error: { error: { type: 'overloaded_error', message: 'Overloaded' } } });
      const denied = await api.messages.create({ ...PARAMS, stream: true }).then(() => undefined, (e: unknown) => e);
      expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
    } finally {
      await server.close();
    }
  });
});
