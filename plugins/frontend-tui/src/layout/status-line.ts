import type { TuiState } from '../state/tui-state.js';
import type { Line, Span, Style } from '../terminal/paint.js';
import { textWidth, truncate } from '../terminal/text-width.js';

/** A token count as it fits a status line: `950`, `12.3k`, `1.2M`. */
export function compact(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** Dollars with the precision small amounts need: `$0.004`, `$0.42`, `$12.30`. */
export function dollars(usd: number): string {
  return usd < 0.1 ? `$${usd.toFixed(3)}` : `$${usd.toFixed(2)}`;
}

const SEP: Span = { text: ' · ', style: { dim: true } };

function connection(state: TuiState): Span {
  const { connection: c } = state;
  if (c.state === 'open') return { text: 'daemon ●', style: { fg: 'green' } };
  if (c.state === 'reconnecting') return { text: `daemon reconnecting${c.attempt ? ` (${c.attempt})` : ''}`, style: { fg: 'yellow' } };
  return { text: 'daemon closed', style: { fg: 'red' } };
}

/**
 * The status line: the model, the session's tokens and cost, the last turn's, how much of the context
 * window the last call used, what the turn is doing and, attached to a daemon, the connection. Budgets
 * left are not in the protocol yet, so they are not shown rather than guessed.
 */
export function statusLine(state: TuiState, width: number, attached: boolean): Line {
  const parts: Span[] = [];
  const { usage, model } = state;
  if (model) parts.push({ text: model.model ?? model.provider, style: { fg: 'cyan' } });
  if (usage.sessionTokens > 0 || usage.costUsd !== undefined) {
    const cost = usage.costUsd !== undefined && usage.costUsd > 0 ? ` ${dollars(usage.costUsd)}` : '';
    parts.push({ text: `${usage.partial ? '≥' : ''}${compact(usage.sessionTokens)} tok${cost}` });
  }
  if (usage.turnTokens > 0) parts.push({ text: `turn ${compact(usage.turnTokens)}${usage.turnCostUsd > 0 ? ` ${dollars(usage.turnCostUsd)}` : ''}`, style: { dim: true } });
  if (usage.used !== undefined && usage.size) {
    const percent = Math.min(999, Math.round((usage.used / usage.size) * 100));
    const style: Style | undefined = percent >= 90 ? { fg: 'red' } : percent >= 70 ? { fg: 'yellow' } : undefined;
    parts.push({ text: `ctx ${percent}%`, ...(style ? { style } : {}) });
  }
  if (state.turn === 'cancelling') parts.push({ text: 'cancelling…', style: { fg: 'yellow' } });
  if (attached) parts.push(connection(state));
  if (parts.length === 0) parts.push({ text: state.session ? `session ${state.session.id}` : 'new session', style: { dim: true } });
  const line: Span[] = [];
  let used = 0;
  for (const part of parts) {
    const sep = line.length > 0 ? SEP : undefined;
    const need = textWidth(part.text) + (sep ? textWidth(sep.text) : 0);
    if (used + need > width) {
      if (used === 0) line.push({ ...part, text: truncate(part.text, width) });
      break;
    }
    if (sep) line.push(sep);
    line.push(part);
    used += need;
  }
  return line;
}
