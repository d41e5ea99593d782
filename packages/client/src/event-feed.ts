import type { AnyMessage, SessionUpdate } from '@agentclientprotocol/sdk';
import {
  ConfirmationRequestedSchema,
  LogNotificationSchema,
  NODWYN_METHODS,
  type ClientEvent,
  type ConnectionState,
} from '@nodwyn/protocol';
import { clientError, type ProtocolError } from './protocol-error.js';
import { issueOf } from './schema-check.js';

const SESSION_UPDATE = 'session/update';

/**
 * The one ordered event stream of a client. It reads the agent's notifications as they arrive, before
 * the ACP SDK dispatches anything: the SDK runs notification handlers concurrently, so only here is
 * arrival order certain, and an update is emitted before the answer to the prompt that caused it
 * resolves. It keeps each session's highest log seq and drops a log event at or below it, so a replay
 * after a reconnect never yields an event twice.
 */
export class EventFeed {
  private readonly listeners = new Set<(event: ClientEvent) => void>();
  private readonly seqs = new Map<string, number>();
  private current: ConnectionState = 'open';

  /** Where the connection stands. */
  get state(): ConnectionState {
    return this.current;
  }

  /** Adds a listener; returns its removal. */
  subscribe(listener: (event: ClientEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The highest log seq seen of a session; 0 before any. */
  lastSeq(sessionId: string): number {
    return this.seqs.get(sessionId) ?? 0;
  }

  /**
   * Turns the notifications that feed events into events. True when `message` was one of them (the SDK
   * need not see it); false for anything else.
   */
  take(message: AnyMessage): boolean {
    if (!('method' in message) || 'id' in message) return false;
    switch (message.method) {
      case SESSION_UPDATE:
        this.update(message.params);
        return true;
      case NODWYN_METHODS.log:
        this.log(message.params);
        return true;
      case NODWYN_METHODS.confirmationRequested:
        this.confirmation(message.params);
        return true;
      default:
        return false;
    }
  }

  /** A change of the connection's state. */
  connection(state: ConnectionState, details: { attempt?: number; error?: string } = {}): void {
    this.current = state;
    this.emit({ type: 'connection', state, ...details });
  }

  /** A failure the connection survived (a dropped frame): a `connection` event that keeps the state. */
  report(error: ProtocolError): void {
    this.emit({ type: 'connection', state: this.current, error: error.message });
  }

  private update(params: unknown): void {
    if (!isRecord(params) || typeof params.sessionId !== 'string' || !isRecord(params.update) || typeof params.update.sessionUpdate !== 'string') {
      this.report(invalidNotification(SESSION_UPDATE, params, 'sessionId and update.sessionUpdate must be strings'));
      return;
    }
    this.emit({ type: 'update', sessionId: params.sessionId, update: params.update as SessionUpdate });
  }

  private log(params: unknown): void {
    const parsed = LogNotificationSchema.safeParse(params);
    if (!parsed.success) {
      this.report(invalidNotification(NODWYN_METHODS.log, params, issueOf(parsed.error)));
      return;
    }
    const { sessionId, event } = parsed.data;
    if (event.seq <= this.lastSeq(sessionId)) return;
    this.seqs.set(sessionId, event.seq);
    this.emit({ type: 'log', sessionId, event });
  }

  private confirmation(params: unknown): void {
    const parsed = ConfirmationRequestedSchema.safeParse(params);
    if (!parsed.success) {
      this.report(invalidNotification(NODWYN_METHODS.confirmationRequested, params, issueOf(parsed.error)));
      return;
    }
    this.emit({ type: 'confirmation', request: parsed.data });
  }

  private emit(event: ClientEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        // A front end's bug must not stop the feed, nor the other listeners; it still gets seen.
        console.error('@nodwyn/client: an onEvent listener threw', error);
      }
    }
  }
}

function invalidNotification(method: string, params: unknown, why: string): ProtocolError {
  return clientError('CLIENT_FRAME_INVALID', {
    operation: method,
    received_value: params,
    expected: why,
    remediation: `The agent sent a ${method} notification that does not match the protocol (${why}); it was dropped. If it keeps happening, the daemon and this client speak different protocol versions.`,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
