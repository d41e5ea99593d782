import { describe, expect, it } from 'vitest';
import { emptySession } from './session-items.js';
import { statusText } from './status-line.js';

describe('statusText', () => {
  it('names the model, tokens, cost, context used and the turn', () => {
    const state = { ...emptySession('s'), turn: 'running' as const, status: { provider: 'anthropic', model: 'claude', sessionTokens: 12_345, costUsd: 0.25, used: 50_000, size: 200_000 } };
    expect(statusText(state)).toBe('anthropic/claude · 12.3k tokens · $0.25 · context 25% of 200.0k · running');
    expect(statusText(emptySession('s'))).toBe('model unknown · 0 tokens · — · context — · idle');
  });
});
