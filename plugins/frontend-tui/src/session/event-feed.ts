import type { ClientEvent } from '@nodwyn/protocol';

/** Events of other sessions kept for a session the TUI may be about to show (a new session, a fork). */
const HELD_MAX = 2000;

function sessionOf(event: ClientEvent): string | undefined {
  if (event.type === 'update' || event.type === 'log') return event.sessionId;
  if (event.type === 'confirmation') return event.request.sessionId;
  return undefined;
}

/**
 * The client's events on their way to the store, delivered together once per frame: a page of a replay
 * or a burst of deltas is one render, not hundreds. Events of a session the TUI does not show are held
 * (the newest `HELD_MAX`), because a session's first events can arrive before the request that created
 * it answers; `adopt` hands them over once it is shown.
 */
export class EventFeed {
  #queue: ClientEvent[] = [];
  #held: ClientEvent[] = [];
  /** While a session's tail is replayed, its events gather here, to be drawn together. */
  #replay: ClientEvent[] | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deliver: (events: readonly ClientEvent[]) => void,
    private readonly shown: () => string | undefined,
    private readonly frameMs: number,
  ) {}

  push(event: ClientEvent): void {
    const session = sessionOf(event);
    if (session !== undefined && session !== this.shown()) {
      this.#held.push(event);
      if (this.#held.length > HELD_MAX) this.#held.splice(0, this.#held.length - HELD_MAX);
      return;
    }
    if (this.#replay && session !== undefined) return void this.#replay.push(event);
    this.#queue.push(event);
    this.#timer ??= setTimeout(() => this.flush(), this.frameMs);
  }

  /** Gathers the shown session's events until `endReplay` (a tail being replayed). */
  startReplay(): void {
    this.flush();
    this.#replay = [];
  }

  /** What was gathered since `startReplay`; events flow frame by frame again. */
  endReplay(): readonly ClientEvent[] {
    const events = this.#replay ?? [];
    this.#replay = undefined;
    return events;
  }

  /** Delivers what is queued now (before a local action, so the order of things is kept). */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#queue.length === 0) return;
    const events = this.#queue;
    this.#queue = [];
    this.deliver(events);
  }

  /** Queues the held events of `sessionId`, now shown, in the order they came. */
  adopt(sessionId: string): void {
    const mine = this.#held.filter((e) => sessionOf(e) === sessionId);
    if (mine.length === 0) return;
    this.#held = this.#held.filter((e) => sessionOf(e) !== sessionId);
    for (const event of mine) this.push(event);
  }

  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue = [];
    this.#held = [];
    this.#replay = undefined;
  }
}
