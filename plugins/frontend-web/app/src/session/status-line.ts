import { formatCost, formatTokens } from '../sessions-model.js';
import type { SessionState } from './session-items.js';

/** The session's status line: model, tokens, cost and how full the context window is. */
export function statusText(state: SessionState): string {
  const s = state.status;
  const model = s.model ? (s.provider ? `${s.provider}/${s.model}` : s.model) : (s.provider ?? 'model unknown');
  const context = s.used !== undefined && s.size ? `context ${Math.round((100 * s.used) / s.size)}% of ${formatTokens(s.size)}` : 'context —';
  return [model, `${formatTokens(s.sessionTokens)} tokens`, formatCost(s.costUsd), context, state.turn === 'idle' ? 'idle' : state.turn].join(' · ');
}
