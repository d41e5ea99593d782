import type { LogEvent } from '@nodwyn/protocol';

/** The events that remember an "always" answer for a session, by the call's effect. */
export const APPROVAL_EVENTS = ['approval.granted', 'approval.refused'] as const;

/** What a session remembers about an effect: the latest "always" answer, if any. */
export type Remembered = 'granted' | 'refused';

/**
 * The "always" answers of each session (docs/architecture.md §9), by effect: the latest `approval.granted`
 * or `approval.refused` for an effect in the session's lineage wins. Loaded from the log once per session
 * when first asked, then kept current by `recorded`, so a call never scans the session's history.
 */
export class Approvals {
  readonly #sessions = new Map<string, Map<string, Remembered>>();

  /** @param fromLog the approval events of a session's lineage, in order. */
  constructor(private readonly fromLog: (session: string) => readonly LogEvent[]) {}

  /** The session's remembered answer for `effect`. */
  of(session: string, effect: string): Remembered | undefined {
    return this.#load(session).get(effect);
  }

  /** Called after an event was appended; an approval updates a session already loaded (a later load reads it). */
  recorded(event: LogEvent): void {
    const known = this.#sessions.get(event.session);
    if (known) remember(known, event);
  }

  #load(session: string): Map<string, Remembered> {
    let known = this.#sessions.get(session);
    if (known === undefined) {
      known = new Map();
      for (const event of this.fromLog(session)) remember(known, event);
      this.#sessions.set(session, known);
    }
    return known;
  }
}

function remember(known: Map<string, Remembered>, event: LogEvent): void {
  const effect = event.payload.effect;
  if (typeof effect !== 'string') return;
  if (event.type === 'approval.granted') known.set(effect, 'granted');
  else if (event.type === 'approval.refused') known.set(effect, 'refused');
}
