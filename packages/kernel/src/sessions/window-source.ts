import type { LogEvent } from '@nodwyn/protocol';
import type { EventLog } from '../log/index.js';
import type { ActiveSummary } from './window-scanner.js';

/** The events that add and revoke summaries. */
export const SUMMARY_EVENTS = ['summary.added', 'summary.revoked'] as const;

/** One stretch of a session's lineage: `session` from seq 1 to `upTo`. */
export interface LineageLink {
  readonly session: string;
  readonly upTo: number;
}

/** What the window is read from: an event, or a summary standing for a span of them. */
export type WindowPiece = { readonly event: LogEvent } | { readonly summary: ActiveSummary };

/** The lineage of `session`, newest stretch first: itself to its head, then each parent up to its fork point. */
export function lineageLinks(log: EventLog, session: string): LineageLink[] {
  const links: LineageLink[] = [];
  let current: LineageLink | undefined = { session, upTo: log.head(session)?.seq ?? 0 };
  while (current && current.upTo > 0) {
    links.push(current);
    const created: LogEvent | undefined = log.read(current.session, 1, 1)[0];
    const from: { session: string; seq: number } | undefined = created?.type === 'session.created' ? (created.payload as { forked_from?: { session: string; seq: number } }).forked_from : undefined;
    current = from && { session: from.session, upTo: from.seq };
  }
  return links;
}

/**
 * The summaries in force over the lineage: every `summary.added` no `summary.revoked` names. A summary
 * covers seqs of the session it was logged in. Read with the type index, so it costs the summaries, not the history.
 */
export function activeSummaries(log: EventLog, links: readonly LineageLink[]): ActiveSummary[] {
  const active: ActiveSummary[] = [];
  for (const { session, upTo } of links) {
    const events = log.readTypes(session, SUMMARY_EVENTS, 1, upTo);
    const revoked = new Set(events.filter((e) => e.type === 'summary.revoked').map((e) => Number(e.payload.seq)));
    for (const e of events) {
      const p = e.payload as { from_seq?: unknown; to_seq?: unknown; text?: unknown };
      if (e.type !== 'summary.added' || revoked.has(e.seq) || typeof p.from_seq !== 'number' || typeof p.to_seq !== 'number') continue;
      active.push({ session, seq: e.seq, fromSeq: p.from_seq, toSeq: p.to_seq, text: String(p.text ?? '') });
    }
  }
  return active;
}

/**
 * Reads a lineage from its end backwards, a page at a time, with each summarised span standing as its
 * summary (its events are not read). `next(size)` returns the pieces just older than those returned
 * before, oldest first, or `undefined` once the lineage's start was reached.
 */
export class BackwardReader {
  #link = 0;
  #cursor: number;

  constructor(private readonly log: EventLog, private readonly links: readonly LineageLink[], private readonly summaries: readonly ActiveSummary[]) {
    this.#cursor = links[0]?.upTo ?? 0;
  }

  next(size: number): WindowPiece[] | undefined {
    const pieces: WindowPiece[] = [];
    while (this.#link < this.links.length && pieces.length < size) {
      const { session } = this.links[this.#link]!;
      if (this.#cursor < 1) {
        this.#link++;
        this.#cursor = this.links[this.#link]?.upTo ?? 0;
        continue;
      }
      const covering = this.#outermostCovering(session, this.#cursor);
      if (covering) {
        pieces.unshift({ summary: covering });
        this.#cursor = covering.fromSeq - 1;
        continue;
      }
      const from = Math.max(1, this.#cursor - (size - pieces.length) + 1, this.#newestEndBelow(session, this.#cursor) + 1);
      pieces.unshift(...this.log.read(session, from, this.#cursor).map((event) => ({ event })));
      this.#cursor = from - 1;
    }
    return pieces.length > 0 ? pieces : undefined;
  }

  // A summary over a span that holds an older summary wins: it covers what the older one did.
  #outermostCovering(session: string, seq: number): ActiveSummary | undefined {
    let best: ActiveSummary | undefined;
    for (const s of this.summaries) {
      if (s.session === session && s.fromSeq <= seq && seq <= s.toSeq && (!best || s.fromSeq < best.fromSeq)) best = s;
    }
    return best;
  }

  #newestEndBelow(session: string, seq: number): number {
    let end = 0;
    for (const s of this.summaries) if (s.session === session && s.toSeq < seq && s.toSeq > end) end = s.toSeq;
    return end;
  }
}
