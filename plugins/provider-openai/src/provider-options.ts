import { type ProviderOptions } from '@nodwyn/plugin-api';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '@nodwyn/plugin-api/transport';
import { openAiError } from './errors.js';

/** Which OpenAI API a provider speaks. */
export type OpenAiApi = 'chat' | 'responses';

/** The options of one provider, checked and typed. */
export interface OpenAiOptions {
  readonly model: string;
  readonly api: OpenAiApi;
  /** Most output tokens per call; unset leaves the server's default. */
  readonly maxTokens?: number;
  readonly policy: RetryPolicy;
}

/** An option as text. Options come from the command line as strings, but `[provider.<id>]` in TOML may give numbers. */
export function optionText(options: ProviderOptions, key: string, parameter: string): string | undefined {
  const raw: unknown = options[key];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'string' || typeof raw === 'number') return String(raw).trim();
  throw openAiError('OPTION_INVALID', {
    operation: 'provider.create',
    failed_parameter: parameter,
    received_value: raw,
    expected: 'a string',
    remediation: `${parameter} must be a string; fix it on the command line or in [provider.<id>] of config.toml.`,
  });
}

function integer(options: ProviderOptions, key: string, range: { min: number; max: number }): number | undefined {
  const value = optionText(options, key, key);
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= range.min && n <= range.max) return n;
  throw openAiError('OPTION_INVALID', {
    operation: 'provider.create',
    failed_parameter: key,
    received_value: value,
    expected: `an integer from ${range.min} to ${range.max}`,
    remediation: `Set ${key} to an integer from ${range.min} to ${range.max} in [provider.<id>] of config.toml, or leave it out for the default.`,
  });
}

function api(options: ProviderOptions): OpenAiApi {
  const value = optionText(options, 'api', '--api') ?? 'chat';
  if (value === 'chat' || value === 'responses') return value;
  throw openAiError('OPTION_INVALID', {
    operation: 'provider.create',
    failed_parameter: '--api',
    received_value: value,
    expected: 'chat or responses',
    remediation: 'Pass --api chat (Chat Completions, the default; what OpenAI-compatible servers speak) or --api responses (OpenAI\'s Responses API).',
  });
}

/**
 * Reads a provider's options. `defaultModel` is the model when none is given; without one (openai-compatible,
 * whose server alone knows its models) a missing `--model` fails with a remediation that says where to find
 * the names.
 */
export function parseOpenAiOptions(options: ProviderOptions, provider: string, defaultModel?: string): OpenAiOptions {
  const model = optionText(options, 'model', '--model') ?? defaultModel;
  if (model === undefined) {
    throw openAiError('OPTION_MISSING', {
      operation: 'provider.create',
      failed_parameter: '--model',
      expected: 'the name of a model the server serves, e.g. qwen2.5-coder',
      remediation: `${provider} needs the model name the server serves: pass --model NAME (\`ollama list\` shows Ollama's; other servers list theirs at GET <base-url>/models), or set model in [provider.${provider}] of config.toml.`,
    });
  }
  const maxTokens = integer(options, 'max_tokens', { min: 1, max: 10_000_000 });
  const policy: RetryPolicy = {
    maxAttempts: integer(options, 'max_attempts', { min: 1, max: 10 }) ?? DEFAULT_RETRY_POLICY.maxAttempts,
    baseMs: integer(options, 'retry_base_ms', { min: 0, max: 600_000 }) ?? DEFAULT_RETRY_POLICY.baseMs,
    maxMs: integer(options, 'retry_max_ms', { min: 0, max: 600_000 }) ?? DEFAULT_RETRY_POLICY.maxMs,
  };
  return { model, api: api(options), policy, ...(maxTokens === undefined ? {} : { maxTokens }) };
}
