import { isEnvelopeError } from '@nodwyn/plugin-api';
import { DEFAULT_RETRY_POLICY } from '@nodwyn/plugin-api/transport';
import { describe, expect, it } from 'vitest';
import { parseOpenAiOptions } from './provider-options.js';

function failure(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return isEnvelopeError(error) ? error.envelope : error;
  }
  throw new Error('expected a failure');
}

describe('parseOpenAiOptions', () => {
  it('defaults to the chat API, the default model and the runtime retry policy', () => {
    expect(parseOpenAiOptions({}, 'openai', 'gpt-4.1')).toEqual({ model: 'gpt-4.1', api: 'chat', policy: DEFAULT_RETRY_POLICY });
  });

  it('reads string options, and numbers as TOML gives them', () => {
    const options = { model: 'qwen2.5-coder', api: 'responses', max_tokens: '2048', max_attempts: 2, retry_base_ms: '10', retry_max_ms: '500' } as unknown as Record<string, string>;
    expect(parseOpenAiOptions(options, 'openai-compatible')).toEqual({ model: 'qwen2.5-coder', api: 'responses', maxTokens: 2048, policy: { maxAttempts: 2, baseMs: 10, maxMs: 500 } });
  });

  it('fails without a model when there is no default, naming --model and where to find the names', () => {
    expect(failure(() => parseOpenAiOptions({}, 'openai-compatible'))).toMatchObject({
      category: 'VALIDATION_FAILED',
      code: 'OPTION_MISSING',
      failed_parameter: '--model',
      remediation: expect.stringContaining('ollama list'),
    });
  });

  it('refuses an unknown --api', () => {
    expect(failure(() => parseOpenAiOptions({ api: 'completions' }, 'openai', 'gpt-4.1'))).toMatchObject({ code: 'OPTION_INVALID', failed_parameter: '--api', received_value: 'completions' });
  });

  it.each([
    ['max_tokens', '0'],
    ['max_tokens', '12.5'],
    ['max_attempts', '11'],
    ['retry_base_ms', '-1'],
    ['retry_max_ms', 'soon'],
  ])('refuses %s = %s with VALIDATION_FAILED naming the option', (key, value) => {
    expect(failure(() => parseOpenAiOptions({ [key]: value }, 'openai', 'gpt-4.1'))).toMatchObject({ category: 'VALIDATION_FAILED', failed_parameter: key });
  });
});
