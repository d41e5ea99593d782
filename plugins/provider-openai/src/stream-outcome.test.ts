import { describe, expect, it } from 'vitest';
import { chatUsage, responsesUsage, stopReason } from './stream-outcome.js';

describe('stopReason', () => {
  const plain = { toolCalls: 0, refused: false };

  it.each([
    ['stop', 'end_turn'],
    ['tool_calls', 'tool_use'],
    ['function_call', 'tool_use'],
    ['length', 'max_tokens'],
    ['max_output_tokens', 'max_tokens'],
    ['content_filter', 'refusal'],
    ['eos', 'eos'],
  ])('maps %s to %s', (finish, reason) => {
    expect(stopReason(finish, plain)).toBe(reason);
  });

  it('says tool_use when a server finished with `stop` after tool calls', () => {
    expect(stopReason('stop', { toolCalls: 2, refused: false })).toBe('tool_use');
  });

  it('says refusal when the answer was a refusal that finished with `stop`', () => {
    expect(stopReason('stop', { toolCalls: 0, refused: true })).toBe('refusal');
  });

  it('keeps max_tokens even when a call had started', () => {
    expect(stopReason('length', { toolCalls: 1, refused: false })).toBe('max_tokens');
  });
});

describe('usage', () => {
  it('takes cached tokens out of the chat prompt tokens', () => {
    expect(chatUsage({ prompt_tokens: 130, completion_tokens: 20, total_tokens: 150, prompt_tokens_details: { cached_tokens: 30 } })).toEqual({ input: 100, output: 20, cache_read: 30 });
  });

  it('reads chat usage without details (most compatible servers) as uncached input', () => {
    expect(chatUsage({ prompt_tokens: 12, completion_tokens: 3 })).toEqual({ input: 12, output: 3 });
  });

  it('takes cached tokens out of the Responses input tokens', () => {
    expect(responsesUsage({ input_tokens: 50, input_tokens_details: { cached_tokens: 50 }, output_tokens: 7 })).toEqual({ input: 0, output: 7, cache_read: 50 });
  });

  it('has no usage when the counts are missing or not numbers', () => {
    expect(chatUsage(null)).toBeUndefined();
    expect(chatUsage({ prompt_tokens: '12', completion_tokens: 3 })).toBeUndefined();
    expect(responsesUsage({ input_tokens: 5 })).toBeUndefined();
  });

  it('never reports more cached tokens than input tokens', () => {
    expect(chatUsage({ prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 40 } })).toEqual({ input: 0, output: 1, cache_read: 10 });
  });
});
