import { type ProviderOptions } from '@nodwyn/plugin-api';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '@nodwyn/plugin-api/transport';
import { anthropicError } from './errors.js';
import { DEFAULT_MODEL } from './models.js';

/** Output tokens per call when `max_tokens` is not given; the Messages API requires a value. */
export const DEFAULT_MAX_TOKENS = 8192;
/** The smallest thinking budget the API accepts. */
export const MIN_THINKING_BUDGET = 1024;

/** The options of one provider, checked and typed. */
export interface AnthropicOptions {
  readonly model: string;
  readonly maxTokens: number;
  /** Extended thinking's token budget; undefined leaves thinking off. */
  readonly thinkingBudget?: number;
  readonly policy: RetryPolicy;
}

function invalid(parameter: string, received: unknown, expected: string, remediation: string): never {
  throw anthropicError('OPTION_INVALID', { operation: 'provider.create', failed_parameter: parameter, received_value: received, expected, remediation });
}

/** An option as text. Options come from the command line as strings, but `[provider.anthropic]` in TOML may give numbers. */
export function optionText(options: ProviderOptions, key: string, parameter: string): string | undefined {
  const raw: unknown = options[key];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'string' || typeof raw === 'number') return String(raw).trim();
  return invalid(parameter, raw, 'a string', `${parameter} must be a string; fix it on the command line or in [provider.anthropic] of config.toml.`);
}

function integer(options: ProviderOptions, key: string, range: { min: number; max: number }): number | undefined {
  const value = optionText(options, key, key);
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= range.min && n <= range.max) return n;
  return invalid(key, value, `an integer from ${range.min} to ${range.max}`, `Set ${key} to an integer from ${range.min} to ${range.max} in [provider.anthropic] of config.toml, or leave it out for the default.`);
}

/** The retry policy: the runtime's defaults, overridden by `max_attempts`, `retry_base_ms` and `retry_max_ms`. */
function retryPolicy(options: ProviderOptions): RetryPolicy {
  return {
    maxAttempts: integer(options, 'max_attempts', { min: 1, max: 10 }) ?? DEFAULT_RETRY_POLICY.maxAttempts,
    baseMs: integer(options, 'retry_base_ms', { min: 0, max: 60_000 }) ?? DEFAULT_RETRY_POLICY.baseMs,
    maxMs: integer(options, 'retry_max_ms', { min: 0, max: 600_000 }) ?? DEFAULT_RETRY_POLICY.maxMs,
  };
}

/**
 * Reads a provider's options. A thinking budget must leave room for the answer: the API refuses a budget
 * that is not below `max_tokens`, so that is caught here, before a request is spent on it.
 */
export function anthropicOptions(options: ProviderOptions): AnthropicOptions {
  const model = optionText(options, 'model', '--model') ?? DEFAULT_MODEL;
  const maxTokens = integer(options, 'max_tokens', { min: 1, max: 1_000_000 }) ?? DEFAULT_MAX_TOKENS;
  const thinkingBudget = integer(options, 'thinking_budget', { min: MIN_THINKING_BUDGET, max: 1_000_000 });
  if (thinkingBudget !== undefined && thinkingBudget >= maxTokens) {
    invalid(
      'thinking_budget',
      thinkingBudget,
      `an integer from ${MIN_THINKING_BUDGET} to ${maxTokens - 1} (below max_tokens ${maxTokens})`,
      `The thinking budget must be below max_tokens (${maxTokens}), which also holds the answer. Lower thinking_budget or raise max_tokens in [provider.anthropic] of config.toml.`,
    );
  }
  return { model, maxTokens, policy: retryPolicy(options), ...(thinkingBudget === undefined ? {} : { thinkingBudget }) };
}
