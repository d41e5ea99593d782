import type { Kernel } from '@nodwyn/kernel';
import type { ModelChoice } from './agent-runtime.js';

/** The event `/model` writes: a session's own model, over config.toml's `[provider]`. */
export const SESSION_CONFIGURED = 'session.configured';

/**
 * The model a session chose for itself with `/model`: the latest `session.configured` of its lineage (a
 * fork keeps its parent's choice up to the fork point), or none. Read with the indexed type read, so it
 * costs the same on a long session as on a new one.
 */
export function sessionChoice(kernel: Kernel, session: string): ModelChoice {
  const latest = kernel.sessions.lineageOf(session, [SESSION_CONFIGURED]).at(-1)?.payload;
  if (!latest || typeof latest.model !== 'string') return {};
  return { model: latest.model, ...(typeof latest.provider === 'string' ? { provider: latest.provider } : {}) };
}
