import { priceOf, type ModelInfo, type ModelProvider, type ProviderFactory, type ProviderOptions } from '@nodwyn/plugin-api';
import { checkBaseUrl } from '@nodwyn/plugin-api/transport';
import { apiKeyFor } from './api-key.js';
import { openAiError } from './errors.js';
import { DEFAULT_OPENAI_MODEL, OPENAI_MODELS } from './models.js';
import { openAiProvider } from './openai-provider.js';
import { optionText, parseOpenAiOptions } from './provider-options.js';

/** What the factories take from the user's settings when the plugin registers. */
export interface FactoryHost {
  readonly settings: Readonly<Record<string, unknown>>;
  /** `policy.allow_insecure_http`: plain http to a host that is not loopback. */
  readonly allowInsecureHttp: boolean;
}

/** OpenAI's own API root. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

interface Flavour {
  readonly id: string;
  readonly baseUrl: string;
  readonly defaultModel?: string;
  readonly table: readonly ModelInfo[];
  readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';
}

/** Checks everything before a request could be sent: options, base URL, and which key (if any) the host may get. */
function createProvider(flavour: Flavour, options: ProviderOptions, host: FactoryHost): ModelProvider {
  const baseUrl = checkBaseUrl(flavour.baseUrl, { provider: flavour.id, allowInsecureHttp: host.allowInsecureHttp });
  const parsed = parseOpenAiOptions(options, flavour.id, flavour.defaultModel);
  const apiKey = apiKeyFor(baseUrl, options, flavour.id);
  const price = priceOf(flavour.id, parsed.model, flavour.table, host.settings);
  const { api, model, maxTokens, policy } = parsed;
  return openAiProvider({
    id: flavour.id,
    endpoint: { api, baseUrl, apiKey, model, maxTokensField: flavour.maxTokensField, ...(maxTokens === undefined ? {} : { maxTokens }) },
    policy,
    ...(price ? { price } : {}),
  });
}

/** `--provider openai`: OpenAI's API (default model gpt-4.1), key from `--api-key` or OPENAI_API_KEY. */
export function openAiFactory(host: FactoryHost): ProviderFactory {
  return {
    id: 'openai',
    description: 'OpenAI at api.openai.com, Chat Completions (default) or Responses API (--api responses); key from --api-key or OPENAI_API_KEY.',
    models: OPENAI_MODELS,
    create(options) {
      const baseUrl = optionText(options, 'base_url', '--base-url') ?? OPENAI_BASE_URL;
      return createProvider({ id: 'openai', baseUrl, defaultModel: DEFAULT_OPENAI_MODEL, table: OPENAI_MODELS, maxTokensField: 'max_completion_tokens' }, options, host);
    },
  };
}

/**
 * `--provider openai-compatible --base-url URL --model M`: any server that speaks OpenAI's API (Ollama,
 * vLLM, llama.cpp server, LM Studio). It has no price table: `[prices.openai-compatible."<model>"]` adds one.
 */
export function openAiCompatibleFactory(host: FactoryHost): ProviderFactory {
  const id = 'openai-compatible';
  return {
    id,
    description: 'Any OpenAI-compatible server by --base-url (Ollama, vLLM, llama.cpp server, LM Studio); needs --model.',
    create(options) {
      const baseUrl = optionText(options, 'base_url', '--base-url');
      if (baseUrl === undefined) {
        throw openAiError('OPTION_MISSING', {
          operation: 'provider.create',
          failed_parameter: '--base-url',
          expected: 'the API root of the server, e.g. http://127.0.0.1:11434/v1',
          remediation: `${id} needs the server's API root: pass --base-url (Ollama http://127.0.0.1:11434/v1, llama.cpp http://127.0.0.1:8080/v1, LM Studio http://127.0.0.1:1234/v1, vLLM http://127.0.0.1:8000/v1), or set base_url in [provider.${id}] of config.toml.`,
        });
      }
      return createProvider({ id, baseUrl, table: [], maxTokensField: 'max_tokens' }, options, host);
    },
  };
}
