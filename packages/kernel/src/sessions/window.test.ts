import type { ModelMessage } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { fitWindow } from './window.js';

const user = (text: string): ModelMessage => ({ role: 'user', text });
const assistant = (text: string): ModelMessage => ({ role: 'assistant', text, toolCalls: [{ id: 'a', name: 'echo', args: {} }] });
const tool = (text: string): ModelMessage => ({ role: 'tool', callId: 'a', name: 'echo', text, isError: false });

describe('fitWindow', () => {
  it('keeps everything that fits', () => {
    const messages = [user('a'), assistant('b'), tool('c')];
    expect(fitWindow(messages, 1000)).toEqual(messages);
  });

  it('drops the oldest exchanges whole, cutting only before a user message', () => {
    const big = 'x'.repeat(400);
    const messages = [user(big), assistant(big), tool(big), user('new'), assistant('b'), tool('c')];
    const kept = fitWindow(messages, 50);
    expect(kept[0]).toEqual(user('new'));
    expect(kept).toHaveLength(3);
  });

  it('always keeps the last user message and what follows, even over budget', () => {
    const messages = [user('x'.repeat(4000)), assistant('y'), tool('z'.repeat(4000))];
    expect(fitWindow(messages, 10)).toEqual(messages);
  });
});
