import { EnvelopeError, type EgressSender, type ModelCompletion, type ModelCompletionResult, type ProviderFactory } from '@nodwyn/plugin-api';
import { retryBudget } from '@nodwyn/plugin-api/transport';
import type { Guard } from '../guard/guard.js';
import type { Registry } from '../registry.js';
import { createGuardedFetch } from './guarded-fetch.js';
import { costOf, streamModel } from './model-call.js';

/** What a plugin's own model call needs from the kernel. */
export interface CompletionDeps {
  readonly guard: Guard;
  readonly providers: Registry<ProviderFactory>;
  readonly sender: () => EgressSender | undefined;
}

/** Retries one plugin model call may use; it has no turn of its own to share a budget with. */
const COMPLETION_RETRIES = 3;

/**
 * A model call a plugin makes for itself (the judge's). It crosses the same guarded fetch as the loop's
 * calls, with no confirmer (nobody is asked on a plugin's behalf: an unbound credential is denied), offers
 * no tools and logs nothing: the caller logs its decision. A broken stream is thrown, never half-used.
 */
export async function completeModel(deps: CompletionDeps, request: ModelCompletion): Promise<ModelCompletionResult> {
  const provider = await deps.providers.get(request.provider).item.create(request.options);
  const fetch = createGuardedFetch({ guard: deps.guard, session: request.session, name: 'model.complete', sender: deps.sender });
  const streamed = await streamModel(
    provider,
    { session: request.session, messages: request.messages, tools: [], fetch, retries: retryBudget(COMPLETION_RETRIES) },
    request.signal,
    () => undefined,
  );
  if (streamed.error) throw new EnvelopeError(streamed.error.envelope, { cause: streamed.error });
  const cost = costOf(streamed, provider);
  return { text: streamed.text, ...(streamed.usage ? { usage: streamed.usage } : {}), ...(cost !== undefined ? { costUsd: cost } : {}) };
}
