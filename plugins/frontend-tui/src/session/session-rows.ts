import type { SessionSummary } from '@nodwyn/protocol';

/** How long ago `iso` was, in the largest unit that fits (`now`, `5m ago`, `3d ago`). */
export function ago(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 45) return 'now';
  const units: [number, string][] = [
    [86_400, 'd'],
    [3600, 'h'],
    [60, 'm'],
  ];
  for (const [size, unit] of units) if (seconds >= size) return `${Math.floor(seconds / size)}${unit} ago`;
  return '1m ago';
}

/** One line per session: id, title, state, last activity and size. */
export function sessionRows(sessions: readonly SessionSummary[], now: number): string[] {
  return sessions.map((s) => `  ${s.sessionId}  ${s.title ?? '(untitled)'}  · ${s.state} · ${ago(s.lastActivity, now)} · ${s.events} events`);
}
