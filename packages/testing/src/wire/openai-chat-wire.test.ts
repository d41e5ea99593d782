import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import type { WireStreamReply } from './wire-reply.js';
import { startWireServer } from './wire-server.js';

const MESSAGES = [{ role: 'user' as const, content: 'hi' }];
const REPLY: WireStreamReply = {
  kind: 'stream',
  text: ['Reading ', 'both: "a"\n✓'],
  toolCalls: [
    { id: 'call_A', name: 'read_file', argsFragments: ['{"pa', 'th": "a.txt"}'] },
    { id: 'call_B', name: 'read_file', argsFragments: ['{"path": ', '"b.txt"}'] },
  ],
  usage: { input: 100, output: 20, cache_read: 30 },
};

function client(url: string): OpenAI {
  return new OpenAI({ apiKey: 'wire-test-key', baseURL: url, maxRetries: 0 });
}

describe('the openai-chat wire server, read by the official SDK', () => {
  it('streams chunks the SDK iterates: content, indexed tool calls, finish_reason, a last usage chunk with empty choices', async () => {
    const server = await startWireServer('openai-chat', [REPLY]);
    try {
      const stream = await client(server.url).chat.completions.create({ model: 'gpt-5', messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
      const chunks: ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'gpt-5')).toBe(true);
      expect(chunks.flatMap((c) => c.choices.map((ch) => ch.delta.content ?? '')).join('')).toBe('Reading both: "a"\n✓');
      expect(chunks.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter(Boolean)).toEqual(['tool_calls']);
      const last = chunks.at(-1)!;
      expect(last.choices).toEqual([]);
      expect(last.usage).toMatchObject({ prompt_tokens: 130, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 30 } });
      expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
      expect(server.requests[0]!.headers.authorization).toBe('Bearer wire-test-key');
    } finally {
      await server.close();
    }
  });

  it('assembles into the final completion with the SDK’s ChatCompletionStream', async () => {
    const server = await startWireServer('openai-chat', [REPLY]);
    try {
      const completion = await client(server.url).chat.completions.stream({ model: 'gpt-5', messages: MESSAGES, stream_options: { include_usage: true } }).finalChatCompletion();
      const choice = completion.choices[0]!;
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.content).toBe('Reading both: "a"\n✓');
      expect(choice.message.tool_calls?.map((c) => (c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : []))).toEqual([
        ['call_A', 'read_file', { path: 'a.txt' }],
        ['call_B', 'read_file', { path: 'b.txt' }],
      ]);
      expect(completion.usage?.total_tokens).toBe(150);
    } finally {
      await server.close();
    }
  });

  it('sends no usage chunk unless asked, and ends every stream with data: [DONE]', async () => {
    const server = await startWireServer('openai-chat', [{ kind: 'stream', text: ['a'], stop: 'max_tokens' }]);
    try {
      const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-5', messages: MESSAGES, stream: true }) });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(response.headers.get('x-request-id')).toBe(server.requests[0]?.requestId);
      const frames = (await response.text()).trim().split('\n\n');
      expect(frames.at(-1)).toBe('data: [DONE]');
      const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice('data: '.length)) as ChatCompletionChunk);
      expect(chunks.every((c) => c.choices.length === 1 && !('usage' in c))).toBe(true);
      expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('length');
    } finally {
      await server.close();
    }
  });

  it('answers errors with {"error":{message,type,param,code}} and x-request-id, which the SDK reads as its typed errors', async () => {
    const server = await startWireServer('openai-chat', [
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '1500', 'retry-after': '2' } },
      { kind: 'error', status: 400, errorType: 'context_length_exceeded', message: 'too long' },
      { kind: 'error', status: 401 },
    ]);
    try {
      const api = client(server.url);
      const create = () => api.chat.completions.create({ model: 'gpt-5', messages: MESSAGES, stream: true }).then(() => undefined, (e: unknown) => e);
      const limited = await create();
      expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
      expect(limited).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'requests', requestID: server.requests[0]?.requestId });
      expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after-ms')).toBe('1500');
      expect(await create()).toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'messages', type: 'invalid_request_error', message: expect.stringContaining('too long') });
      const denied = await create();
      expect(denied).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(denied).toMatchObject({ code: 'invalid_api_key' });
    } finally {
      await server.close();
    }
  });
});
