import type { LogEvent, LogVerifyResult } from '@nodwyn/protocol';

/** A hash as the log view shows it: its first 10 hex digits. */
export function shortHash(hash: string): string {
  return hash.slice(0, 10);
}

/** One log event's line: seq, type, actor and where it sits in the hash chain. */
export function eventLine(event: LogEvent): { seq: string; type: string; actor: string; chain: string; ts: string } {
  return { seq: String(event.seq), type: event.type, actor: event.actor, chain: `${shortHash(event.prev)} → ${shortHash(event.hash)}`, ts: event.ts };
}

/** `verify`'s verdict in words. */
export function verdictText(result: LogVerifyResult): string {
  if (result.ok) return `Verified: ${result.events} events in ${result.sessions} session${result.sessions === 1 ? '' : 's'}, hash chain and signed checkpoint intact.`;
  return `Verification FAILED at event ${result.seq} of ${result.session}: ${result.problem}. ${result.detail}`;
}

/** Log events merged by seq, each once, oldest first. */
export function mergeEvents(a: readonly LogEvent[], b: readonly LogEvent[]): LogEvent[] {
  const bySeq = new Map<number, LogEvent>();
  for (const event of [...a, ...b]) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((x, y) => x.seq - y.seq);
}
