import { priceOf, type ProviderFactory } from '@nodwyn/plugin-api';
import { checkBaseUrl } from '@nodwyn/plugin-api/transport';
import { anthropicProvider } from './anthropic-provider.js';
import { apiKeyFor, OFFICIAL_BASE_URL } from './api-key.js';
import { anthropicOptions, optionText } from './anthropic-options.js';
import { ANTHROPIC_MODELS } from './models.js';

/** What the factory reads from the user's configuration at register time. */
export interface AnthropicFactorySettings {
  /** The whole user configuration, for `[prices.anthropic."<model>"]`. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** `policy.allow_insecure_http`: plain http to a host that is not loopback. */
  readonly allowInsecureHttp: boolean;
  /** Where ANTHROPIC_API_KEY is read; the process environment unless a test says otherwise. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The `anthropic` provider factory. Everything that can be checked without a request is checked in
 * `create`: the options, the base URL (https, or http to loopback) and that a key may go to its host.
 */
export function anthropicProviderFactory(context: AnthropicFactorySettings): ProviderFactory {
  return {
    id: 'anthropic',
    description: 'Anthropic Messages API (Claude): streaming, parallel tool use, extended thinking, prompt-cache usage.',
    models: ANTHROPIC_MODELS,
    create(raw) {
      const options = anthropicOptions(raw);
      const baseUrl = checkBaseUrl(optionText(raw, 'base_url', '--base-url') ?? OFFICIAL_BASE_URL, { provider: 'anthropic', allowInsecureHttp: context.allowInsecureHttp });
      const apiKey = apiKeyFor(baseUrl, raw, context.env);
      const price = priceOf('anthropic', options.model, ANTHROPIC_MODELS, context.settings);
      return anthropicProvider({ options, baseUrl, apiKey, ...(price ? { price } : {}) });
    },
  };
}
