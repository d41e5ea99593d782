import type { Usage } from '@nodwyn/protocol';
import type { ModelInfo, ModelPrice } from './provider.js';

const PRICE_FIELDS = ['input', 'output', 'cache_read', 'cache_write'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `[prices.<provider>."<model>"]` table from config, when it is a valid price (non-negative numbers, input and output present). */
function configuredPrice(settings: Readonly<Record<string, unknown>>, provider: string, model: string): ModelPrice | undefined {
  const prices = settings.prices;
  const forProvider = isRecord(prices) ? prices[provider] : undefined;
  const entry = isRecord(forProvider) ? forProvider[model] : undefined;
  if (!isRecord(entry)) return undefined;
  const price: Record<string, number> = {};
  for (const field of PRICE_FIELDS) {
    const value = entry[field];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) price[field] = value;
  }
  return price.input !== undefined && price.output !== undefined ? (price as unknown as ModelPrice) : undefined;
}

/**
 * The price of `model`: the user's `[prices.<provider>."<model>"]` in config wins over the plugin's own
 * table; a model in neither has no price (its cost is not computed, never guessed).
 */
export function priceOf(provider: string, model: string, table: readonly ModelInfo[], settings: Readonly<Record<string, unknown>>): ModelPrice | undefined {
  return configuredPrice(settings, provider, model) ?? table.find((m) => m.id === model)?.price;
}

/** Every model of a provider: its own table plus the models only the user's config prices. */
export function modelsOf(provider: string, table: readonly ModelInfo[], settings: Readonly<Record<string, unknown>>): ModelInfo[] {
  const prices = settings.prices;
  const configured = isRecord(prices) && isRecord(prices[provider]) ? Object.keys(prices[provider]) : [];
  const ids = [...new Set([...table.map((m) => m.id), ...configured])];
  return ids.map((id) => {
    const known = table.find((m) => m.id === id);
    const price = priceOf(provider, id, table, settings);
    return { ...known, id, ...(price ? { price } : {}) };
  });
}

/**
 * The cost of one call in USD. `input` counts uncached input tokens only (both providers report cache
 * reads and writes apart from it); cache reads and writes use their own prices, else the input price.
 */
export function costUsd(usage: Usage, price: ModelPrice): number {
  const perToken = (perMillion: number) => perMillion / 1_000_000;
  const cost =
    usage.input * perToken(price.input) +
    usage.output * perToken(price.output) +
    (usage.cache_read ?? 0) * perToken(price.cache_read ?? price.input) +
    (usage.cache_write ?? 0) * perToken(price.cache_write ?? price.input);
  return Math.round(cost * 1e9) / 1e9;
}
