import { describe, expect, it } from 'vitest';
import { parseJudgeConfig } from './judge-config.js';

describe('parseJudgeConfig', () => {
  it('without [judge] there is no judge: plan mode and egress are off, defaults otherwise', () => {
    expect(parseJudgeConfig({})).toEqual({ options: {}, planMode: false, content: 'plan', threshold: 0.7, timeoutMs: 30_000, egress: false });
    expect(parseJudgeConfig({ judge: { mode: 'on', egress: 'on' } })).toMatchObject({ planMode: false, egress: false });
  });

  it('passes model, base_url, api_key and [judge.options] to the provider, the named keys winning', () => {
    const config = parseJudgeConfig({
      judge: { provider: 'anthropic', model: 'claude-haiku', base_url: 'https://llm.example', api_key: 'JUDGE_KEY', options: { max_tokens: '200', model: 'other' }, mode: 'on', content: 'full', threshold: 0.5, timeout_ms: 5000 },
    });
    expect(config).toEqual({
      provider: 'anthropic',
      model: 'claude-haiku',
      options: { max_tokens: '200', model: 'claude-haiku', base_url: 'https://llm.example', api_key: 'JUDGE_KEY' },
      planMode: true,
      content: 'full',
      threshold: 0.5,
      timeoutMs: 5000,
      egress: true,
    });
    expect(parseJudgeConfig({ judge: { provider: 'scripted', egress: 'off' } }).egress).toBe(false);
  });

  it.each([
    [{ threshold: 1.5 }, '$.judge.threshold'],
    [{ content: 'everything' }, '$.judge.content'],
    [{ mode: true }, '$.judge.mode'],
    [{ treshold: 0.5 }, '$.judge'],
    [{ options: { max_tokens: 200 } }, '$.judge.options.max_tokens'],
    [{ timeout_ms: 5 }, '$.judge.timeout_ms'],
  ])('rejects %j with VALIDATION_FAILED naming %s', (judge, path) => {
    expect(() => parseJudgeConfig({ judge: { provider: 'scripted', ...judge } })).toThrow(
      expect.objectContaining({ envelope: expect.objectContaining({ category: 'VALIDATION_FAILED', code: 'CONFIG_INVALID', failed_parameter: path }) }),
    );
  });
});
