import type { SessionSummary } from '@nodwyn/protocol';

/** A sessions-list row, with the optional `cost` (USD) the daemon adds when it knows it. */
export type SessionRow = SessionSummary & { readonly cost?: number };

/** One workspace's sessions, most recent first. */
export interface WorkspaceGroup {
  readonly workspace: string;
  readonly sessions: readonly SessionRow[];
}

/** Sessions grouped by workspace: groups by their latest activity, sessions newest first. */
export function groupByWorkspace(sessions: readonly SessionRow[]): WorkspaceGroup[] {
  const groups = new Map<string, SessionRow[]>();
  for (const session of sessions) {
    const group = groups.get(session.workspace);
    if (group) group.push(session);
    else groups.set(session.workspace, [session]);
  }
  const newest = (rows: readonly SessionRow[]) => rows.reduce((max, row) => (row.lastActivity > max ? row.lastActivity : max), '');
  return [...groups.entries()]
    .map(([workspace, rows]) => ({ workspace, sessions: [...rows].sort((a, b) => (a.lastActivity < b.lastActivity ? 1 : a.lastActivity > b.lastActivity ? -1 : 0)) }))
    .sort((a, b) => (newest(a.sessions) < newest(b.sessions) ? 1 : -1));
}

/** A cost in USD as people read it: `$0.0042`, `$1.23`; a dash when unknown. */
export function formatCost(cost: number | undefined): string {
  if (cost === undefined || !Number.isFinite(cost)) return '—';
  if (cost === 0) return '$0';
  return cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}

/** How long ago `iso` was, relative to `now` (ms): `just now`, `5 min ago`, `3 h ago`, else the date. */
export function formatAgo(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return iso;
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(at).toISOString().slice(0, 10);
}

/** A token count as people read it: `950`, `12.3k`, `1.2M`. */
export function formatTokens(tokens: number | undefined): string {
  if (tokens === undefined) return '—';
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}
