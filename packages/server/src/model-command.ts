import type { Kernel } from '@nodwyn/kernel';
import { modelsOf, toEnvelope, type ModelInfo } from '@nodwyn/plugin-api';
import { providerIdFrom, providerOptionsFrom, type Config } from '@nodwyn/runtime';
import type { ModelChoice } from './agent-runtime.js';
import type { CommandContext } from './command-context.js';
import { SESSION_CONFIGURED, sessionChoice } from './session-choice.js';

/**
 * `/model`: the session's provider and model, and the models its provider knows; `/model ID` (or
 * `PROVIDER/ID`) makes the session use that model from its next prompt on, logged as `session.configured`
 * after the provider was made with it (so a model that cannot run is refused before it is recorded). A
 * provider that lists models takes only those (and the ones config.toml prices).
 */
export async function modelCommand(ctx: CommandContext): Promise<string> {
  const config = ctx.personConfig();
  const current = sessionChoice(ctx.scope.kernel, ctx.session);
  return ctx.input === '' ? describe(ctx, config, current) : switchTo(ctx, config, current);
}

async function describe(ctx: CommandContext, config: Config, current: ModelChoice): Promise<string> {
  const { kernel } = ctx.scope;
  let made: { id: string; model?: string } | undefined;
  let problem: string | undefined;
  try {
    made = (await ctx.scope.turn(current)).provider;
  } catch (error) {
    problem = toEnvelope(error).remediation;
  }
  const id = made?.id ?? providerIdFrom(config, current);
  const model = made?.model ?? current.model ?? providerOptionsFrom(config, id).model;
  const source = current.model !== undefined ? 'chosen in this session with /model' : config.provider?.default !== undefined ? 'from config.toml' : "nodwyn's default";
  const lines = [`This session uses ${id}${model ? ` / ${model}` : ''} (${source}).`];
  if (problem) lines.push(`It cannot run as it is: ${problem}`);
  const known = knownModels(kernel, id, config);
  if (known.length === 0) lines.push(`${id} lists no models; name any model its server serves.`);
  else lines.push(`Known models of ${id} (USD per million tokens, input / output):`, ...known.map((m) => `- ${m.id}${m.id === model ? ' (current)' : ''}${price(m)}`));
  const others = kernel.providers.list().map((p) => p.item.id).filter((other) => other !== id);
  lines.push(`Switch with /model ID${others.length > 0 ? `, or /model PROVIDER/ID for another provider (${others.join(', ')})` : ''}.`);
  return lines.join('\n');
}

async function switchTo(ctx: CommandContext, config: Config, current: ModelChoice): Promise<string> {
  const { kernel } = ctx.scope;
  if (/\s/.test(ctx.input) || ctx.input.length > 200) return 'Give one model id: /model claude-sonnet-4-5, or /model openai/gpt-4.1.';
  const slash = ctx.input.indexOf('/');
  const named = slash > 0 ? ctx.input.slice(0, slash) : undefined;
  const explicit = named !== undefined && kernel.providers.list().some((p) => p.item.id === named);
  const provider = explicit ? named : providerIdFrom(config, current);
  const model = explicit ? ctx.input.slice(slash + 1) : ctx.input;
  if (model === '') return `Name the model after the provider: /model ${provider}/ID.`;
  const known = knownModels(kernel, provider, config);
  if (known.length > 0 && !known.some((m) => m.id === model)) {
    return [
      `${provider} has no model "${model}". Known: ${known.map((m) => m.id).join(', ')}.`,
      `To use another, price it in config.toml ([prices.${provider}."${model}"] with input and output), then /model ${model} again.`,
    ].join('\n');
  }
  try {
    await ctx.scope.turn({ provider, model });
  } catch (error) {
    const envelope = toEnvelope(error);
    return `Not switched: ${provider} / ${model} cannot run (${envelope.code ?? envelope.category}): ${envelope.remediation}`;
  }
  kernel.append(ctx.session, { type: SESSION_CONFIGURED, actor: 'user', payload: { provider, model } });
  return `This session now uses ${provider} / ${model}, from its next prompt on.`;
}

/** The provider's models with prices (its table and config.toml's `[prices]`); none for an unknown provider. */
export function knownModels(kernel: Kernel, provider: string, config: Config): ModelInfo[] {
  const factory = kernel.providers.list().find((p) => p.item.id === provider)?.item;
  return factory ? modelsOf(provider, factory.models ?? [], config) : [];
}

function price(model: ModelInfo): string {
  if (!model.price) return '';
  const usd = (value: number) => `$${value.toFixed(value < 0.1 ? 3 : 2)}`;
  return `: ${usd(model.price.input)} / ${usd(model.price.output)}`;
}
