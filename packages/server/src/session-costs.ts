import type { EventLog } from '@nodwyn/kernel';

/**
 * Each session's cost so far (USD, the sum of its assistant messages' `cost_usd`), kept per session with
 * the seq it was summed to: a sessions list reads only the assistant messages logged since it last looked,
 * through the (session, type, seq) index, so listing never walks a session's history again.
 */
export class SessionCosts {
  readonly #known = new Map<string, { seq: number; usd: number | undefined }>();

  constructor(private readonly log: EventLog) {}

  /** The session's cost up to `head` (its latest seq); undefined while none of its model calls was priced. */
  of(session: string, head: number): number | undefined {
    const known = this.#known.get(session) ?? { seq: 0, usd: undefined };
    if (head <= known.seq) return known.usd;
    let usd = known.usd;
    for (const event of this.log.readTypes(session, ['message.assistant'], known.seq + 1, head)) {
      const cost = (event.payload as { cost_usd?: unknown }).cost_usd;
      if (typeof cost === 'number' && Number.isFinite(cost)) usd = (usd ?? 0) + cost;
    }
    this.#known.set(session, { seq: head, usd });
    return usd;
  }
}
