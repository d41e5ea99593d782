import type { LogEvent } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import type { ClientConnection } from './client-connection.js';
import { Subscribers } from './subscribers.js';

/** A connection that records what it was sent, in order. */
function recorder(): { connection: ClientConnection; sent: string[] } {
  const sent: string[] = [];
  const connection = {
    update: (_s: string, u: { sessionUpdate: string }) => sent.push(`update:${u.sessionUpdate}`),
    log: (_s: string, e: LogEvent) => sent.push(`log:${e.seq}`),
    confirmation: () => sent.push('confirmation'),
  } as unknown as ClientConnection;
  return { connection, sent };
}

const event = (seq: number) => ({ seq }) as LogEvent;

describe('Subscribers', () => {
  it('holds a replaying client\'s live deliveries and sends them after, without the events the replay covered', () => {
    const subscribers = new Subscribers('s');
    const a = recorder();
    subscribers.add(a.connection, true);
    subscribers.hold(a.connection);
    subscribers.log(event(4));
    subscribers.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } });
    subscribers.log(event(5));
    expect(a.sent).toEqual([]);
    subscribers.release(a.connection, 4);
    expect(a.sent).toEqual(['update:agent_message_chunk', 'log:5']);
    subscribers.log(event(6));
    expect(a.sent.at(-1)).toBe('log:6');
  });

  it('sends log events and questions only to nodwyn clients, and an echo of a prompt to everyone but its sender', () => {
    const subscribers = new Subscribers('s');
    const plain = recorder();
    const nodwyn = recorder();
    subscribers.add(plain.connection);
    subscribers.add(nodwyn.connection, true);
    subscribers.log(event(1));
    subscribers.update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } }, 2, plain.connection);
    expect(plain.sent).toEqual([]);
    expect(nodwyn.sent).toEqual(['log:1', 'update:user_message_chunk']);
  });
});
