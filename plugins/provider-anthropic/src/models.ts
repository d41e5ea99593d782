import type { ModelInfo } from '@nodwyn/plugin-api';

/** The model a provider uses when none is given: current, and not on the SDK's deprecation list. */
export const DEFAULT_MODEL = 'claude-sonnet-4-6';

/**
 * Anthropic's list prices in USD per million tokens (Anthropic's pricing page and public price listings
 * of March–June 2026, checked 2026-11-30). `cache_write` is the 5-minute cache write (the API's default
 * TTL); a 1-hour write costs twice the input price, so a run that asks for it reports less than it was
 * billed. Models not listed (the 5-series among them) have no price until the user adds
 * `[prices.anthropic."<model>"]` in config.toml, which also wins over this table.
 */
export const ANTHROPIC_MODELS: readonly ModelInfo[] = [
  { id: 'claude-opus-4-8', contextTokens: 1_000_000, price: { input: 5, output: 25, cache_read: 0.5, cache_write: 6.25 } },
  { id: 'claude-opus-4-6', contextTokens: 1_000_000, price: { input: 5, output: 25, cache_read: 0.5, cache_write: 6.25 } },
  { id: 'claude-sonnet-4-6', contextTokens: 1_000_000, price: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 } },
  { id: 'claude-sonnet-4-5', contextTokens: 200_000, price: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 } },
  { id: 'claude-haiku-4-5', contextTokens: 200_000, price: { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 } },
];
