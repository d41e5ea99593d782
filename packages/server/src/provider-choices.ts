import type { Kernel } from '@nodwyn/kernel';
import { modelsOf, type ProviderFactory } from '@nodwyn/plugin-api';
import type { ProviderChoice } from '@nodwyn/protocol';
import type { Config } from '@nodwyn/runtime';

/** What setting up a provider takes: a key, a base URL, and the host its key goes to by default. */
export interface ProviderSetupFacts {
  readonly needsKey: boolean;
  readonly needsBaseUrl: boolean;
  /** The API's host, which the key is bound to when no base URL is given. */
  readonly host?: string;
}

/**
 * The first-party providers' setup facts. A provider nodwyn does not know (a third-party plugin's) is
 * offered as needing neither; a key given for it is bound to its base URL's host, which must then be given.
 */
const KNOWN: Readonly<Record<string, ProviderSetupFacts>> = {
  anthropic: { needsKey: true, needsBaseUrl: false, host: 'api.anthropic.com' },
  openai: { needsKey: true, needsBaseUrl: false, host: 'api.openai.com' },
  'openai-compatible': { needsKey: false, needsBaseUrl: true },
};

/** Providers for tests, demos and reproductions (architecture §12), never offered to a person setting up. */
const NOT_OFFERED: ReadonlySet<string> = new Set(['scripted', 'replay']);

/** The setup facts of a provider. */
export function setupFacts(id: string): ProviderSetupFacts {
  return KNOWN[id] ?? { needsKey: false, needsBaseUrl: false };
}

/** The registered providers a person may set up, by id. */
export function offeredProviders(kernel: Kernel): ProviderFactory[] {
  return kernel.providers
    .list()
    .map(({ item }) => item)
    .filter((factory) => !NOT_OFFERED.has(factory.id));
}

/** `_nodwyn/providers/list`'s providers: each offered one with its models and prices (its table and config's `[prices]`). */
export function providerChoices(kernel: Kernel, config: Config): ProviderChoice[] {
  return offeredProviders(kernel).map((factory) => {
    const { needsKey, needsBaseUrl } = setupFacts(factory.id);
    const models = modelsOf(factory.id, factory.models ?? [], config).map((m) => ({
      id: m.id,
      ...(m.price ? { input: m.price.input, output: m.price.output } : {}),
    }));
    return { id: factory.id, description: factory.description, models, needsKey, needsBaseUrl };
  });
}

/** What the person configured: `[provider] default` and its model; undefined on a first run. */
export function configuredProvider(config: Config): { provider: string; model?: string } | undefined {
  const provider = config.provider?.default;
  if (provider === undefined) return undefined;
  const model = config.provider?.[provider]?.model;
  return typeof model === 'string' ? { provider, model } : { provider };
}
