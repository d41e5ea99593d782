import type { ModelStreamEvent } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { ToolCallBuffer, toolCall } from './tool-call-buffer.js';

describe('toolCall', () => {
  it('parses JSON arguments', () => {
    expect(toolCall('c1', 'read_file', '{"path":"a.txt"}')).toEqual({ id: 'c1', name: 'read_file', args: { path: 'a.txt' } });
  });

  it('keeps arguments that are not JSON as the raw text, so the guard can answer VALIDATION_FAILED', () => {
    expect(toolCall('c1', 'read_file', '{"path": "a.txt"')).toEqual({ id: 'c1', name: 'read_file', args: '{"path": "a.txt"' });
  });

  it('gives a call without argument text an empty object', () => {
    expect(toolCall('c1', 'list', '  ')).toEqual({ id: 'c1', name: 'list', args: {} });
  });
});

describe('ToolCallBuffer', () => {
  it('announces a call with its name, streams fragments, and finishes each call once', () => {
    const buffer = new ToolCallBuffer<number>();
    const events: ModelStreamEvent[] = [
      ...buffer.take(0, { id: 'call_a', name: 'read_file', fragment: '' }, 'fallback'),
      ...buffer.take(0, { fragment: '{"pa' }, 'fallback'),
      ...buffer.take(0, { fragment: 'th":"a"}' }, 'fallback'),
      ...buffer.finish(0),
      ...buffer.finish(0),
      ...buffer.finishAll(),
    ];
    expect(events).toEqual([
      { type: 'tool_call_delta', callId: 'call_a', name: 'read_file', argsFragment: '' },
      { type: 'tool_call_delta', callId: 'call_a', argsFragment: '{"pa' },
      { type: 'tool_call_delta', callId: 'call_a', argsFragment: 'th":"a"}' },
      { type: 'tool_call', call: { id: 'call_a', name: 'read_file', args: { path: 'a' } } },
    ]);
    expect([buffer.started, buffer.count]).toEqual([1, 1]);
  });

  it('names a call without an id by its fallback, and lets the final argument text win', () => {
    const buffer = new ToolCallBuffer<string>();
    const events = [...buffer.take('fc_1', { name: 'read_file', fragment: '{"path"' }, 'call_1'), ...buffer.finish('fc_1', '{"path":"b"}')];
    expect(events.at(-1)).toEqual({ type: 'tool_call', call: { id: 'call_1', name: 'read_file', args: { path: 'b' } } });
  });

  it('finishes open calls in the order they were opened', () => {
    const buffer = new ToolCallBuffer<number>();
    expect([...buffer.take(1, { id: 'b', name: 'x' }, 'f'), ...buffer.take(0, { id: 'a', name: 'x' }, 'f')]).toHaveLength(2);
    expect([...buffer.finishAll()].map((e) => (e.type === 'tool_call' ? e.call.id : e.type))).toEqual(['b', 'a']);
  });
});
