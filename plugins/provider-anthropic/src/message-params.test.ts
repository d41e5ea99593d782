import type { ModelMessage } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { messageParams, toolParams } from './message-params.js';

const THINKING_TURN: ModelMessage[] = [
  { role: 'user', text: 'read a and b' },
  {
    role: 'assistant',
    text: 'Reading both.',
    toolCalls: [
      { id: 'toolu_a', name: 'read_file', args: { path: 'a.txt' } },
      { id: 'toolu_b', name: 'read_file', args: { path: 'b.txt' } },
    ],
    thinking: [
      { text: 'I should read both files.', signature: 'c2lnLTE=' },
      { text: 'EuYBCkQYAiJA', redacted: true },
      { text: 'a block from elsewhere, unsigned' },
    ],
  },
  { role: 'tool', callId: 'toolu_a', name: 'read_file', text: 'alpha', isError: false },
  { role: 'tool', callId: 'toolu_b', name: 'read_file', text: 'ENOENT: no such file', isError: true },
];

describe('messageParams', () => {
  it('sends thinking back first and verbatim (signature, redacted data) when thinking is on, dropping unsigned blocks', () => {
    const [, assistant] = messageParams(THINKING_TURN, { thinking: true });
    expect(assistant).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should read both files.', signature: 'c2lnLTE=' },
        { type: 'redacted_thinking', data: 'EuYBCkQYAiJA' },
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.txt' } },
        { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'b.txt' } },
      ],
    });
  });

  it('leaves thinking out when the request runs without thinking', () => {
    const [, assistant] = messageParams(THINKING_TURN, { thinking: false });
    expect((assistant!.content as { type: string }[]).map((block) => block.type)).toEqual(['text', 'tool_use', 'tool_use']);
  });

  it('merges the results of parallel calls into one user message of tool_result blocks, with is_error', () => {
    const params = messageParams(THINKING_TURN, { thinking: false });
    expect(params).toHaveLength(3);
    expect(params[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', is_error: false, content: 'alpha' },
        { type: 'tool_result', tool_use_id: 'toolu_b', is_error: true, content: 'ENOENT: no such file' },
      ],
    });
  });

  it('puts a user message that follows tool results into the same user turn, after the results', () => {
    const params = messageParams([...THINKING_TURN, { role: 'user', text: 'and then?' }], { thinking: false });
    expect(params.map((p) => p.role)).toEqual(['user', 'assistant', 'user']);
    expect((params[2]!.content as { type: string }[]).map((block) => block.type)).toEqual(['tool_result', 'tool_result', 'text']);
  });

  it('drops empty text, and a message left with no content, so roles still alternate', () => {
    const params = messageParams(
      [
        { role: 'user', text: 'one' },
        { role: 'assistant', text: '', toolCalls: [] },
        { role: 'user', text: 'two' },
        { role: 'tool', callId: 'toolu_x', name: 'read_file', text: '', isError: false },
      ],
      { thinking: false },
    );
    expect(params).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
          { type: 'tool_result', tool_use_id: 'toolu_x', is_error: false },
        ],
      },
    ]);
  });

  it('sends a logged call whose arguments were not JSON with an empty input object', () => {
    const [, assistant] = messageParams(
      [
        { role: 'user', text: 'go' },
        { role: 'assistant', text: '', toolCalls: [{ id: 'toolu_bad', name: 'read_file', args: '{"path": "a.t' }, { id: 'toolu_str', name: 'read_file', args: '{"path":"b"}' }] },
      ],
      { thinking: false },
    );
    expect(assistant!.content).toEqual([
      { type: 'tool_use', id: 'toolu_bad', name: 'read_file', input: {} },
      { type: 'tool_use', id: 'toolu_str', name: 'read_file', input: { path: 'b' } },
    ]);
  });
});

describe('toolParams', () => {
  it('declares each tool with name, description and input_schema', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' } } };
    expect(toolParams([{ name: 'read_file', description: 'Reads a file.', inputSchema: schema }])).toEqual([{ name: 'read_file', description: 'Reads a file.', input_schema: schema }]);
  });
});
