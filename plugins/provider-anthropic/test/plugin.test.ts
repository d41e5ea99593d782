import { costUsd } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { providerAnthropicPlugin } from '../src/index.js';
import { anthropicFactory } from './plugin-context.js';

const LOOPBACK = { base_url: 'http://127.0.0.1:9' };

describe('providerAnthropicPlugin', () => {
  it('registers the anthropic factory under the manifest it declares', async () => {
    expect(providerAnthropicPlugin.manifest).toMatchObject({ name: '@nodwyn/plugin-provider-anthropic', provides: ['provider:anthropic'], permissions: ['net'] });
    const factory = await anthropicFactory();
    expect(factory.models?.map((m) => m.id)).toEqual(['claude-opus-4-8', 'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-sonnet-4-5', 'claude-haiku-4-5']);
  });

  it('uses claude-sonnet-4-6 by default, priced from the table with its cache prices', async () => {
    const provider = await (await anthropicFactory()).create(LOOPBACK);
    expect([provider.id, provider.model]).toEqual(['anthropic', 'claude-sonnet-4-6']);
    expect(provider.price).toEqual({ input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 });
    expect(costUsd({ input: 1_000_000, output: 0, cache_read: 1_000_000, cache_write: 1_000_000 }, provider.price!)).toBeCloseTo(7.05);
  });

  it('lets [prices.anthropic."<model>"] in config price a model, or re-price a known one', async () => {
    const settings = { prices: { anthropic: { 'claude-opus-4-5': { input: 5, output: 25, cache_read: 0.5, cache_write: 6.25 }, 'claude-haiku-4-5': { input: 0.9, output: 4.5 } } } };
    const factory = await anthropicFactory(settings);
    expect((await factory.create({ ...LOOPBACK, model: 'claude-opus-4-5' })).price).toEqual({ input: 5, output: 25, cache_read: 0.5, cache_write: 6.25 });
    expect((await factory.create({ ...LOOPBACK, model: 'claude-haiku-4-5' })).price).toEqual({ input: 0.9, output: 4.5 });
  });

  it('gives a model it has no price for no price, so its cost is never guessed', async () => {
    const provider = await (await anthropicFactory()).create({ ...LOOPBACK, model: 'claude-some-future-model' });
    expect(provider.price).toBeUndefined();
  });
});
