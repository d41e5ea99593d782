import { type ModelMessage, type ModelRequest } from '@nodwyn/plugin-api';
import { retryBudget } from '@nodwyn/plugin-api/transport';
import { describe, expect, it } from 'vitest';
import { chatBody } from './chat-request.js';
import { responsesBody } from './responses-request.js';

const window: ModelMessage[] = [
  { role: 'user', text: 'read a and b' },
  {
    role: 'assistant',
    text: 'Reading both.',
    toolCalls: [
      { id: 'call_a', name: 'read_file', args: { path: 'a.txt' } },
      { id: 'call_b', name: 'read_file', args: '{"path": "b.txt"' },
    ],
    thinking: [{ text: 'the user wants two files' }],
  },
  { role: 'tool', callId: 'call_a', name: 'read_file', text: 'A', isError: false },
  { role: 'tool', callId: 'call_b', name: 'read_file', text: 'VALIDATION_FAILED: args are not JSON', isError: true },
  { role: 'assistant', text: '', toolCalls: [{ id: 'call_c', name: 'list', args: {} }] },
  { role: 'tool', callId: 'call_c', name: 'list', text: 'a.txt', isError: false },
  { role: 'assistant', text: 'Done.', toolCalls: [] },
  { role: 'user', text: 'thanks' },
];

function request(messages: readonly ModelMessage[], withTools = true): ModelRequest {
  const tools = withTools ? [{ name: 'read_file', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }] : [];
  return { session: 's', messages, tools, fetch: () => Promise.reject(new Error('not used')), retries: retryBudget(0) };
}

describe('chatBody', () => {
  it('sends tool calls with their ids and arguments as text, and each result as a tool message with the same id', () => {
    const body = chatBody(request(window), { model: 'm', maxTokensField: 'max_tokens' });
    expect(body.messages).toEqual([
      { role: 'user', content: 'read a and b' },
      {
        role: 'assistant',
        content: 'Reading both.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path": "b.txt"' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'A' },
      { role: 'tool', tool_call_id: 'call_b', content: 'VALIDATION_FAILED: args are not JSON' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_c', type: 'function', function: { name: 'list', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_c', content: 'a.txt' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('streams with usage, offers tools as function tools with their JSON Schema', () => {
    const body = chatBody(request(window), { model: 'gpt-4.1', maxTokensField: 'max_completion_tokens', maxTokens: 900 });
    expect(body).toMatchObject({ model: 'gpt-4.1', stream: true, stream_options: { include_usage: true }, max_completion_tokens: 900 });
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }]);
  });

  it('names the output limit as the server knows it, and sends no empty tools list', () => {
    const body = chatBody(request([window[0]!], false), { model: 'qwen', maxTokensField: 'max_tokens', maxTokens: 64 });
    expect(body).toMatchObject({ max_tokens: 64 });
    expect(body).not.toHaveProperty('max_completion_tokens');
    expect(body).not.toHaveProperty('tools');
  });
});

describe('responsesBody', () => {
  it('sends calls as function_call items and results as function_call_output items with the same call id', () => {
    const body = responsesBody(request(window), { model: 'm', maxTokensField: 'max_tokens' });
    expect(body.input).toEqual([
      { role: 'user', content: 'read a and b' },
      { role: 'assistant', content: 'Reading both.' },
      { type: 'function_call', call_id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
      { type: 'function_call', call_id: 'call_b', name: 'read_file', arguments: '{"path": "b.txt"' },
      { type: 'function_call_output', call_id: 'call_a', output: 'A' },
      { type: 'function_call_output', call_id: 'call_b', output: 'VALIDATION_FAILED: args are not JSON' },
      { type: 'function_call', call_id: 'call_c', name: 'list', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_c', output: 'a.txt' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('streams without storing the response, with non-strict function tools and max_output_tokens', () => {
    const body = responsesBody(request(window), { model: 'gpt-5', maxTokensField: 'max_completion_tokens', maxTokens: 300 });
    expect(body).toMatchObject({ model: 'gpt-5', stream: true, store: false, max_output_tokens: 300 });
    expect(body.tools).toEqual([{ type: 'function', name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: false }]);
  });
});
