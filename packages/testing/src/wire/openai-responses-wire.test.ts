import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import type { WireStreamReply } from './wire-reply.js';
import { startWireServer } from './wire-server.js';

const REPLY: WireStreamReply = {
  kind: 'stream',
  thinking: ['Two ', 'files.'],
  text: ['Reading ', 'both.'],
  toolCalls: [
    { id: 'call_A', name: 'read_file', argsFragments: ['{"pa', 'th": "a.txt"}'] },
    { id: 'call_B', name: 'read_file', argsFragments: ['{"path": ', '"b.txt"}'] },
  ],
  usage: { input: 100, output: 20, cache_read: 30 },
};

function client(url: string): OpenAI {
  return new OpenAI({ apiKey: 'wire-test-key', baseURL: url, maxRetries: 0 });
}

describe('the openai-responses wire server, read by the official SDK', () => {
  it('streams named events with increasing sequence numbers, from response.created to response.completed', async () => {
    const server = await startWireServer('openai-responses', [REPLY]);
    try {
      const stream = await client(server.url).responses.create({ model: 'gpt-5', input: 'hi', stream: true });
      const events: ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
      expect(events[0]?.type).toBe('response.created');
      expect(events.at(-1)?.type).toBe('response.completed');
      expect(events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('')).toBe('Reading both.');
      expect(events.flatMap((e) => (e.type === 'response.function_call_arguments.done' ? [[e.name, e.arguments]] : []))).toEqual([
        ['read_file', '{"path": "a.txt"}'],
        ['read_file', '{"path": "b.txt"}'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('assembles into the final response with the SDK’s ResponseStream', async () => {
    const server = await startWireServer('openai-responses', [REPLY]);
    try {
      const response = await client(server.url).responses.stream({ model: 'gpt-5', input: 'hi' }).finalResponse();
      expect(response.status).toBe('completed');
      expect(response.output.flatMap((item) => (item.type === 'message' ? item.content.map((c) => (c.type === 'output_text' ? c.text : '')) : []))).toEqual(['Reading both.']);
      expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call', 'function_call']);
      expect(response.output.flatMap((item) => (item.type === 'function_call' ? [[item.call_id, JSON.parse(item.arguments)]] : []))).toEqual([
        ['call_A', { path: 'a.txt' }],
        ['call_B', { path: 'b.txt' }],
      ]);
      expect(response.usage).toMatchObject({ input_tokens: 130, input_tokens_details: { cached_tokens: 30 }, output_tokens: 20, total_tokens: 150 });
    } finally {
      await server.close();
    }
  });

  it('ends a max_tokens reply with response.incomplete (max_output_tokens)', async () => {
    const server = await startWireServer('openai-responses', [{ kind: 'stream', text: ['cut'], stop: 'max_tokens' }]);
    try {
      const stream = await client(server.url).responses.create({ model: 'gpt-5', input: 'hi', stream: true });
      const events: ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      expect(events.at(-1)).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
    } finally {
      await server.close();
    }
  });

  it('answers errors with the OpenAI error body, naming `input` for a context that is too long', async () => {
    const server = await startWireServer('openai-responses', [{ kind: 'error', status: 400, errorType: 'context_length_exceeded' }]);
    try {
      const error = await client(server.url).responses.create({ model: 'gpt-5', input: 'hi', stream: true }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({ code: 'context_length_exceeded', param: 'input', requestID: server.requests[0]?.requestId });
    } finally {
      await server.close();
    }
  });
});
