import { costUsd } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { OPENAI_MODELS, providerOpenAiPlugin } from '../src/index.js';
import { factories, factory } from './plugin-context.js';

describe('providerOpenAiPlugin', () => {
  it('provides exactly the two factories it registers, and asks only for the network', async () => {
    expect(providerOpenAiPlugin.manifest).toMatchObject({ name: '@nodwyn/plugin-provider-openai', provides: ['provider:openai', 'provider:openai-compatible'], requires: [], permissions: ['net'] });
    expect([...(await factories()).keys()]).toEqual(['openai', 'openai-compatible']);
  });

  it('prices every listed OpenAI model with input, output and cached input, and has no table for compatible servers', async () => {
    expect(OPENAI_MODELS.map((m) => m.id)).toEqual(['gpt-5', 'gpt-5-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'o4-mini']);
    for (const model of OPENAI_MODELS) {
      expect(model.price!.cache_read!).toBeLessThan(model.price!.input);
      expect(model.price!.input).toBeLessThan(model.price!.output);
    }
    expect((await factory('openai')).models).toBe(OPENAI_MODELS);
    expect((await factory('openai-compatible')).models).toBeUndefined();
  });

  it('defaults openai to gpt-4.1 at its list price', async () => {
    const provider = await (await factory('openai')).create({ api_key: 'openai' });
    expect(provider).toMatchObject({ id: 'openai', model: 'gpt-4.1', price: { input: 2, output: 8, cache_read: 0.5 } });
    expect(costUsd({ input: 1_000_000, output: 1_000_000, cache_read: 1_000_000 }, provider.price!)).toBe(10.5);
  });

  it('takes [prices.<provider>."<model>"] from config over the table, and prices a compatible model only from config', async () => {
    const settings = { prices: { openai: { 'gpt-4o': { input: 1, output: 2 } }, 'openai-compatible': { 'qwen2.5-coder': { input: 0, output: 0 } } } };
    const openai = await (await factory('openai', settings)).create({ api_key: 'openai', model: 'gpt-4o' });
    expect(openai.price).toEqual({ input: 1, output: 2 });
    const local = await (await factory('openai-compatible', settings)).create({ base_url: 'http://127.0.0.1:11434/v1', model: 'qwen2.5-coder' });
    expect(local.price).toEqual({ input: 0, output: 0 });
    const unpriced = await (await factory('openai-compatible')).create({ base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
    expect(unpriced.price).toBeUndefined();
  });
});
