import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ConfirmationRequested, LogEvent } from '@nodwyn/protocol';
import type { ClientConnection } from './client-connection.js';

/** One delivery to a client, kept in order; `seq` marks the log event it stands for, if any. */
interface Delivery {
  readonly seq?: number;
  readonly send: () => void;
}

/** A client attached to a session: whether it wants raw log events, and its backlog while a replay runs. */
interface Subscriber {
  readonly connection: ClientConnection;
  /** `_nodwyn/session/attach`ed: it gets `_nodwyn/log` and `_nodwyn/confirmation/requested` too. */
  nodwyn: boolean;
  /** Live deliveries held while its replay is sent, so live updates never overtake replayed ones. */
  backlog?: Delivery[];
}

/**
 * The clients attached to one session. Live updates go to each in order; a client that is being sent a
 * replay holds its live deliveries in a backlog, which is sent after the replay with every log event the
 * replay already covered dropped: no gap, no duplicate.
 */
export class Subscribers {
  readonly #all = new Map<ClientConnection, Subscriber>();

  constructor(private readonly sessionId: string) {}

  get size(): number {
    return this.#all.size;
  }

  has(connection: ClientConnection): boolean {
    return this.#all.has(connection);
  }

  /** Adds a client (or upgrades it to `nodwyn`); returns whether it was new. */
  add(connection: ClientConnection, nodwyn = false): boolean {
    const existing = this.#all.get(connection);
    if (existing) {
      existing.nodwyn ||= nodwyn;
      return false;
    }
    this.#all.set(connection, { connection, nodwyn });
    return true;
  }

  remove(connection: ClientConnection): void {
    this.#all.delete(connection);
  }

  /** Holds this client's live deliveries until `release`. */
  hold(connection: ClientConnection): void {
    const subscriber = this.#all.get(connection);
    if (subscriber) subscriber.backlog ??= [];
  }

  /** Sends what was held, skipping log events up to `coveredSeq` (the replay sent them). */
  release(connection: ClientConnection, coveredSeq: number): void {
    const subscriber = this.#all.get(connection);
    const backlog = subscriber?.backlog;
    if (!subscriber || !backlog) return;
    subscriber.backlog = undefined;
    for (const delivery of backlog) if (delivery.seq === undefined || delivery.seq > coveredSeq) delivery.send();
  }

  /** A session update to every client, except `except` (the client whose prompt it echoes). */
  update(update: SessionUpdate, seq?: number, except?: ClientConnection): void {
    for (const s of this.#all.values()) {
      if (s.connection !== except) this.#deliver(s, seq, () => s.connection.update(this.sessionId, update));
    }
  }

  /** A log event to every `nodwyn` client. */
  log(event: LogEvent): void {
    for (const s of this.#all.values()) if (s.nodwyn) this.#deliver(s, event.seq, () => s.connection.log(this.sessionId, event));
  }

  /** A pending question to every `nodwyn` client. */
  confirmation(request: ConfirmationRequested): void {
    for (const s of this.#all.values()) if (s.nodwyn) this.#deliver(s, undefined, () => s.connection.confirmation(request));
  }

  #deliver(subscriber: Subscriber, seq: number | undefined, send: () => void): void {
    if (subscriber.backlog) subscriber.backlog.push({ seq, send });
    else send();
  }
}
