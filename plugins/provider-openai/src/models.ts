import type { ModelInfo } from '@nodwyn/plugin-api';

/** The model `openai` uses when none is given. */
export const DEFAULT_OPENAI_MODEL = 'gpt-4.1';

/**
 * OpenAI's models with their list prices, USD per million tokens, standard tier (input, output, cached
 * input as `cache_read`), as published on https://openai.com/api/pricing; taken 2026-11-30. OpenAI does
 * not charge cache writes. `[prices.openai."<model>"]` in config.toml overrides or extends this table.
 */
export const OPENAI_MODELS: readonly ModelInfo[] = [
  { id: 'gpt-5', price: { input: 1.25, output: 10, cache_read: 0.125 }, contextTokens: 400_000 },
  { id: 'gpt-5-mini', price: { input: 0.25, output: 2, cache_read: 0.025 }, contextTokens: 400_000 },
  { id: 'gpt-4.1', price: { input: 2, output: 8, cache_read: 0.5 }, contextTokens: 1_047_576 },
  { id: 'gpt-4.1-mini', price: { input: 0.4, output: 1.6, cache_read: 0.1 }, contextTokens: 1_047_576 },
  { id: 'gpt-4o', price: { input: 2.5, output: 10, cache_read: 1.25 }, contextTokens: 128_000 },
  { id: 'gpt-4o-mini', price: { input: 0.15, output: 0.6, cache_read: 0.075 }, contextTokens: 128_000 },
  { id: 'o4-mini', price: { input: 1.1, output: 4.4, cache_read: 0.275 }, contextTokens: 200_000 },
];
