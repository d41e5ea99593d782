import { describe, expect, it } from 'vitest';
import { formatAgo, formatCost, formatTokens, groupByWorkspace, type SessionRow } from './sessions-model.js';

const row = (sessionId: string, workspace: string, lastActivity: string): SessionRow => ({ sessionId, workspace, lastActivity, state: 'idle', events: 1 });

describe('groupByWorkspace', () => {
  it('groups by workspace, the most recently active group and session first', () => {
    const groups = groupByWorkspace([
      row('a', '/w1', '2026-01-01T00:00:00Z'),
      row('b', '/w2', '2026-01-03T00:00:00Z'),
      row('c', '/w1', '2026-01-02T00:00:00Z'),
    ]);
    expect(groups.map((g) => g.workspace)).toEqual(['/w2', '/w1']);
    expect(groups[1]!.sessions.map((s) => s.sessionId)).toEqual(['c', 'a']);
  });
});

describe('formatting', () => {
  it('formats costs, ages and tokens', () => {
    expect(formatCost(undefined)).toBe('—');
    expect(formatCost(0.0042)).toBe('$0.0042');
    expect(formatCost(1.234)).toBe('$1.23');
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(formatAgo('2026-01-01T11:59:50Z', now)).toBe('just now');
    expect(formatAgo('2026-01-01T11:50:00Z', now)).toBe('10 min ago');
    expect(formatAgo('2026-01-01T09:00:00Z', now)).toBe('3 h ago');
    expect(formatAgo('2025-12-01T09:00:00Z', now)).toBe('2025-12-01');
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(12_345)).toBe('12.3k');
  });
});
