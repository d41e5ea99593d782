import type { ProviderChoice } from '@nodwyn/protocol';
import type { ProviderSetup } from '../session/tui-controller.js';

/** What the setup has gathered so far. */
export type SetupChoice = Partial<ProviderSetup> & { readonly provider: string };

/** Where the first-run setup stands. */
export type SetupStep =
  | { readonly name: 'provider' }
  | { readonly name: 'key' | 'baseUrl' | 'model' | 'typedModel' | 'saving'; readonly choice: SetupChoice }
  | { readonly name: 'failed'; readonly message: string };

/**
 * The step after `done`: a key when the provider needs one, then a base URL when it needs one, then a
 * model from its list (or typed, when it lists none).
 */
export function nextStep(providers: readonly ProviderChoice[], choice: SetupChoice, done: 'provider' | 'key' | 'baseUrl'): SetupStep {
  const provider = providers.find((p) => p.id === choice.provider);
  if (done === 'provider' && provider?.needsKey) return { name: 'key', choice };
  if ((done === 'provider' || done === 'key') && provider?.needsBaseUrl) return { name: 'baseUrl', choice };
  return { name: provider && provider.models.length > 0 ? 'model' : 'typedModel', choice };
}
