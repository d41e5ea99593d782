import { describe, expect, it } from 'vitest';
import { EventPayloads, GENESIS_HASH, LogEventSchema } from './log-event.js';
import { FrontendEventSchema } from './frontend-event.js';

const event = { session: 's-1', seq: 1, ts: '2026-11-30T00:00:00.000Z', type: 'message.user', actor: 'user', payload: { text: 'hi' }, prev: GENESIS_HASH, hash: 'a'.repeat(64) };

describe('LogEventSchema', () => {
  it('accepts an event and refuses bad types, actors, seqs and hashes', () => {
    expect(LogEventSchema.safeParse(event).success).toBe(true);
    for (const bad of [{ type: 'MessageUser' }, { type: 'message' }, { actor: 'root' }, { seq: 0 }, { hash: 'xyz' }]) {
      expect(LogEventSchema.safeParse({ ...event, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('names tool and plugin actors', () => {
    for (const actor of ['tool:read_file', 'plugin:@nodwyn/plugin-keychain', 'kernel', 'model']) {
      expect(LogEventSchema.safeParse({ ...event, actor }).success, actor).toBe(true);
    }
  });

  it('describes the kernel payloads, failures carrying an envelope', () => {
    expect(EventPayloads['turn.ended'].safeParse({ reason: 'answer', answer: 'x' }).success).toBe(true);
    expect(EventPayloads['turn.ended'].safeParse({ reason: 'bored' }).success).toBe(false);
    expect(EventPayloads['tool.denied'].safeParse({ call_id: 'c', name: 'x', stage: 'policy' }).success).toBe(false);
    expect(EventPayloads['session.configured'].safeParse({ provider: 'anthropic', model: 'claude-sonnet-4-5' }).success).toBe(true);
    expect(EventPayloads['session.configured'].safeParse({ provider: 'anthropic' }).success).toBe(false);
  });
});

describe('FrontendEventSchema', () => {
  it('carries log events and ephemeral deltas', () => {
    expect(FrontendEventSchema.safeParse({ type: 'log', event }).success).toBe(true);
    expect(FrontendEventSchema.safeParse({ type: 'delta.text', session: 's', text: 'he' }).success).toBe(true);
    expect(FrontendEventSchema.safeParse({ type: 'delta.unknown', session: 's' }).success).toBe(false);
  });
});
