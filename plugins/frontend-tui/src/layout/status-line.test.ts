import { describe, expect, it } from 'vitest';
import { initialState, type TuiState } from '../state/tui-state.js';
import { lineText } from '../terminal/wrap.js';
import { compact, dollars, statusLine } from './status-line.js';

const state = (over: Partial<TuiState>): TuiState => ({ ...initialState(), session: { id: 's-1' }, ...over });

describe('statusLine', () => {
  it('shows the model, the session and last turn tokens and cost, and the context used', () => {
    const line = statusLine(
      state({
        model: { provider: 'anthropic', model: 'claude-sonnet-4' },
        usage: { used: 45_000, size: 200_000, costUsd: 0.4213, sessionTokens: 123_456, partial: false, turnTokens: 3100, turnCostUsd: 0.012 },
      }),
      100,
      false,
    );
    expect(lineText(line)).toBe('claude-sonnet-4 · 123k tok $0.42 · turn 3.1k $0.012 · ctx 23%');
  });

  it('marks totals that come only from the events shown, and warns when the context is nearly full', () => {
    const line = statusLine(state({ usage: { used: 95, size: 100, sessionTokens: 900, partial: true, turnTokens: 0, turnCostUsd: 0 } }), 100, false);
    expect(lineText(line)).toBe('≥900 tok · ctx 95%');
    expect(line.find((s) => s.text === 'ctx 95%')?.style).toEqual({ fg: 'red' });
  });

  it("shows the daemon's connection when attached", () => {
    expect(lineText(statusLine(state({}), 80, true))).toBe('daemon ●');
    expect(lineText(statusLine(state({ connection: { state: 'reconnecting', attempt: 3 } }), 80, true))).toBe('daemon reconnecting (3)');
    expect(lineText(statusLine(state({ connection: { state: 'closed' } }), 80, true))).toBe('daemon closed');
  });

  it('says which session when nothing else is known, and fits a narrow terminal by dropping what does not fit', () => {
    expect(lineText(statusLine(state({}), 80, false))).toBe('session s-1');
    const { session: _s, ...none } = state({});
    expect(lineText(statusLine(none, 80, false))).toBe('new session');
    const narrow = statusLine(state({ model: { provider: 'p', model: 'a-model-with-a-long-name' }, usage: { used: 1, size: 10, sessionTokens: 5000, partial: false, turnTokens: 0, turnCostUsd: 0 } }), 40, false);
    expect(lineText(narrow)).toBe('a-model-with-a-long-name · 5k tok');
  });

  it('formats counts and dollars compactly', () => {
    expect([compact(950), compact(1234), compact(12_345), compact(1_250_000)]).toEqual(['950', '1.2k', '12k', '1.3M']);
    expect([dollars(0.0042), dollars(0.42), dollars(12.3)]).toEqual(['$0.004', '$0.42', '$12.30']);
  });
});
