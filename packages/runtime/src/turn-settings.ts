import { DEFAULT_BUDGETS, type Budgets } from '@nodwyn/kernel';
import type { LoopStrategy, ModelProvider, ProviderOptions } from '@nodwyn/plugin-api';
import { loadConfig, type Config } from './config.js';
import { runtimeError } from './errors.js';
import type { WorkspaceScope } from './workspace-scope.js';

/** What a person chose for one run on the command line; every field falls back to `config.toml`. */
export interface TurnFlags {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly api?: string;
  readonly script?: string;
  readonly session?: string;
  readonly loop?: string;
  readonly maxTurns?: number;
  readonly maxToolCalls?: number;
  readonly maxCost?: number;
}

/** What one prompt runs with: the provider made for it, the loop strategy and its owner, the budgets. */
export interface TurnSetup {
  readonly provider: ModelProvider;
  /** The model that writes summaries, when the person chose another (`[memory] summary_model`). */
  readonly summaryProvider?: ModelProvider;
  readonly strategy: LoopStrategy;
  readonly strategyOwner: string;
  readonly budgets: Partial<Budgets>;
}

/**
 * The scope's config with `[provider]` as the person's config file says it now. A daemon's scopes boot
 * once, but the person may set up a provider while it runs (`_nodwyn/providers/configure`, or an edit of
 * config.toml): reading that one table again before each prompt makes the next prompt use it. Only the
 * person's own file sets `[provider]` (a repository may not, see `REPO_SETTABLE`), so nothing of the
 * workspace's config is lost. A file that no longer parses is its envelope, as at boot.
 */
export function withCurrentProvider(config: Config, configFile: string): Config {
  const { provider } = loadConfig(configFile);
  const rest = Object.fromEntries(Object.entries(config).filter(([key]) => key !== 'provider'));
  return provider === undefined ? rest : { ...rest, provider };
}


/**
 * The provider a run uses: the flag, else `[provider] default`, else the scripted one when a script was
 * given. With none of them no model was chosen, and guessing one would either fail later with a less
 * useful error or spend the person's money on a model they did not pick: `PROVIDER_NOT_CONFIGURED`.
 */
export function providerIdFrom(config: Config, flags: TurnFlags = {}): string {
  const id = flags.provider ?? config.provider?.default ?? (flags.script === undefined ? undefined : 'scripted');
  if (id !== undefined) return id;
  throw runtimeError('PROVIDER_NOT_CONFIGURED', {
    operation: 'provider.select',
    failed_parameter: 'provider',
    expected: 'a --provider, a [provider] default in config.toml, or a --script for the scripted provider',
    // One fix a line: the guided command first, then the same by hand, then the offline way.
    remediation: [
      'No model provider is configured; any one of these fixes it:',
      '  nodwyn setup --provider anthropic --model claude-sonnet-4-6   (the API key on stdin; also openai, or openai-compatible with --base-url)',
      '  by hand (docs/providers.md): in config.toml, [provider] default = "anthropic" and [provider.anthropic] model = "claude-sonnet-4-6", api_key = "anthropic";',
      '    then printf %s "$ANTHROPIC_API_KEY" | nodwyn secret add anthropic --class control-plane',
      '    and nodwyn bind add control-plane --host api.anthropic.com --position header:authorization --method POST',
      '  offline, the scripted provider: nodwyn run --script FILE "PROMPT"',
    ].join('\n  '),
  });
}

/**
 * The provider's options: `[provider.<id>]` from config, then the command line. Only options a person set
 * are passed, so each provider's own defaults apply to the rest.
 */
export function providerOptionsFrom(config: Config, id: string, flags: TurnFlags = {}): ProviderOptions {
  const section = config.provider?.[id];
  const fromConfig = typeof section === 'object' && section !== null ? section : {};
  const fromFlags = { model: flags.model, base_url: flags.baseUrl, api_key: flags.apiKey, api: flags.api, script: flags.script, session: flags.session };
  const given = Object.entries(fromFlags).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { ...fromConfig, ...Object.fromEntries(given) };
}

/** The budgets of a run: the flags, else `[budgets]`; what neither sets keeps the kernel's default. */
export function budgetsFrom(config: Config, flags: TurnFlags = {}): Partial<Budgets> {
  const b = config.budgets ?? {};
  const pick = <T>(...values: (T | undefined)[]) => values.find((v) => v !== undefined);
  const budgets: Partial<Budgets> = {
    maxTurns: pick(flags.maxTurns, b.max_turns),
    maxToolCalls: pick(flags.maxToolCalls, b.max_tool_calls),
    maxTokens: b.max_tokens,
    maxWallMs: b.max_wall_ms,
    maxRepeats: b.max_repeats,
    windowTokens: b.window_tokens,
    answerTokens: b.answer_tokens,
    maxRetries: b.max_retries,
    maxCostUsd: pick(flags.maxCost, b.max_cost_usd),
    maxToolArgsBytes: b.max_tool_args_bytes,
  };
  return Object.fromEntries(Object.entries(budgets).filter(([, v]) => v !== undefined));
}

/**
 * Everything one prompt in `scope` runs with, as the person configured it: the provider (created now, so a
 * bad script or option fails before anything is logged), the loop strategy and the budgets. The window
 * never outgrows the model's context when its provider knows it (`ModelInfo.contextTokens`): a
 * `window_tokens` above it, or the default, is cut to it.
 */
export async function turnSetup(scope: WorkspaceScope, flags: TurnFlags = {}): Promise<TurnSetup> {
  const { kernel, config } = scope;
  const id = providerIdFrom(config, flags);
  const factory = kernel.providers.get(id).item;
  const provider = await factory.create(providerOptionsFrom(config, id, flags));
  const loop = kernel.loops.get(flags.loop ?? config.loop?.default ?? 'default');
  const budgets = budgetsFrom(config, flags);
  const context = factory.models?.find((m) => m.id === provider.model)?.contextTokens;
  const windowTokens = context === undefined ? budgets.windowTokens : Math.min(budgets.windowTokens ?? DEFAULT_BUDGETS.windowTokens, context);
  const summaryProvider = await summaryProviderFrom(scope, id);
  return {
    provider,
    ...(summaryProvider ? { summaryProvider } : {}),
    strategy: loop.item,
    strategyOwner: loop.owner,
    budgets: windowTokens === undefined ? budgets : { ...budgets, windowTokens },
  };
}

/**
 * The summaries' own model, when the person's `[memory]` names one: `summary_model` on `summary_provider`
 * (default: the turn's provider, with its configured options). A repository cannot set `[memory]`.
 */
async function summaryProviderFrom(scope: WorkspaceScope, turnProvider: string): Promise<ModelProvider | undefined> {
  const memory = (scope.config as { memory?: { summary_model?: unknown; summary_provider?: unknown } }).memory;
  const model = memory?.summary_model;
  if (model === undefined) return undefined;
  const id = typeof memory?.summary_provider === 'string' ? memory.summary_provider : turnProvider;
  if (typeof model !== 'string' || model.length === 0) {
    throw runtimeError('CONFIG_INVALID', {
      operation: 'turn',
      failed_parameter: 'memory.summary_model',
      received_value: model,
      expected: 'a model id, as a string',
      remediation: 'Set `summary_model = "MODEL"` under [memory] in your config.toml (and `summary_provider` for another provider), or remove it to summarise with the session\'s model.',
    });
  }
  return scope.kernel.providers.get(id).item.create({ ...providerOptionsFrom(scope.config, id), model });
}
