import { describe, expect, it } from 'vitest';
import { isEnvelopeError, type LogEvent, type LogReader, type ModelProvider, type ModelStreamEvent } from '@nodwyn/plugin-api';
import type { EventPayload, KernelEventType } from '@nodwyn/protocol';
import { describeProviderConformance } from '@nodwyn/testing';
import { assistant, collect, factory, rejection, request, tool, user } from './plugin-context.js';

const SOURCE = 'source-session';
const HASH = 'a'.repeat(64);

/** Builds a log as the kernel writes it: per-session seq from 1, typed payloads, hash-shaped links. */
function logOf(...entries: { [T in KernelEventType]: [T, EventPayload<T>] }[KernelEventType][]): LogEvent[] {
  return entries.map(([type, payload], i) => ({
    session: SOURCE,
    seq: i + 1,
    ts: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
    type,
    actor: type === 'message.user' ? 'user' : type === 'message.assistant' ? 'model' : 'kernel',
    payload,
    prev: i === 0 ? '0'.repeat(64) : HASH,
    hash: HASH,
  }));
}

/** A reader over one session that records which sessions were asked for. */
function readerOf(events: readonly LogEvent[]): LogReader & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    read: (session) => (asked.push(session), session === SOURCE ? events : []),
    signed: () => undefined,
    sessions: () => [],
  };
}

const sourceLog = logOf(
  ['session.created', { workspace: '/w' }],
  ['turn.started', { provider: 'anthropic', strategy: 'default' }],
  ['message.user', { text: 'fix the bug' }],
  ['message.assistant', { text: 'Looking.', tool_calls: [{ id: 'toolu_01', name: 'read_file', args: { path: 'a.ts' } }], usage: { input: 900, output: 40, cache_read: 800 }, stop_reason: 'tool_use', provider: 'anthropic', model: 'm' }],
  ['tool.completed', { call_id: 'toolu_01', name: 'read_file', content: 'const a = 1;' }],
  ['message.assistant', { text: 'Fixed it.', tool_calls: [], stop_reason: 'end_turn', provider: 'anthropic' }],
  ['turn.ended', { reason: 'answer', answer: 'Fixed it.' }],
);

async function replay(events: readonly LogEvent[] = sourceLog): Promise<{ provider: ModelProvider; reader: ReturnType<typeof readerOf> }> {
  const reader = readerOf(events);
  const provider = await (await factory('replay', reader)).create({ session: SOURCE });
  return { provider, reader };
}

const live = () => new AbortController().signal;
const only = <T extends ModelStreamEvent['type']>(events: ModelStreamEvent[], type: T) =>
  events.filter((event): event is Extract<ModelStreamEvent, { type: T }> => event.type === type);

async function envelopeOf(promise: Promise<unknown>) {
  const error = await rejection(promise);
  if (!isEnvelopeError(error)) throw new Error(`expected an envelope error, got ${String(error)}`);
  return error.envelope;
}

describeProviderConformance('replay', async () => (await replay()).provider);

describe('replay provider', () => {
  it('reads the session named by --session from the log it was given at register', async () => {
    const { reader } = await replay();
    expect(reader.asked).toEqual([SOURCE]);
  });

  it('plays the first assistant message with its original tool call id, usage and stop reason', async () => {
    const { provider } = await replay();
    const events = await collect(provider.stream(request(user('fix the bug')), live()));
    expect(only(events, 'text').map((event) => event.text).join('')).toBe('Looking.');
    expect(only(events, 'tool_call')).toEqual([{ type: 'tool_call', call: { id: 'toolu_01', name: 'read_file', args: { path: 'a.ts' } } }]);
    expect(only(events, 'tool_call_delta').map((delta) => delta.callId)).toEqual(['toolu_01']);
    expect(only(events, 'usage')).toEqual([{ type: 'usage', usage: { input: 900, output: 40, cache_read: 800 } }]);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'tool_use' });
  });

  it('plays the next message after one assistant message since the user message, estimating absent usage', async () => {
    const { provider } = await replay();
    const window = [user('fix the bug'), assistant('Looking.'), tool('const a = 1;')];
    const events = await collect(provider.stream(request(...window), live()));
    expect(only(events, 'text').map((event) => event.text).join('')).toBe('Fixed it.');
    expect(only(events, 'tool_call')).toEqual([]);
    // input: 11 + 8 + 12 = 31 → 8; output: 'Fixed it.' 9 → 3
    expect(only(events, 'usage')).toEqual([{ type: 'usage', usage: { input: 8, output: 3 } }]);
    expect(events.at(-1)).toEqual({ type: 'stop', reason: 'end_turn' });
  });

  it('counts from the most recent user message, so a new prompt replays from the first message', async () => {
    const { provider } = await replay();
    const window = [user('fix the bug'), assistant('Looking.'), tool('x'), assistant('Fixed it.'), user('again')];
    expect(only(await collect(provider.stream(request(...window), live())), 'tool_call')[0]?.call.id).toBe('toolu_01');
  });

  it('fails with SCRIPT_EXHAUSTED past the last assistant message of the session', async () => {
    const { provider } = await replay();
    const window = [user('fix the bug'), assistant('Looking.'), tool('x'), assistant('Fixed it.'), tool('y')];
    const envelope = await envelopeOf(collect(provider.stream(request(...window), live())));
    expect(envelope).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'SCRIPT_EXHAUSTED' });
    expect(envelope.remediation).toContain(`Session ${SOURCE} has 2 replies and the run asked for reply 3`);
  });

  it('fails with REPLAY_SESSION_MISSING without --session', async () => {
    const envelope = await envelopeOf((async () => (await factory('replay', readerOf(sourceLog))).create({}))());
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'REPLAY_SESSION_MISSING', failed_parameter: 'session' });
  });

  it('fails with NOT_FOUND REPLAY_SESSION_NOT_FOUND for a session with no events', async () => {
    const envelope = await envelopeOf((async () => (await factory('replay', readerOf(sourceLog))).create({ session: 'nope' }))());
    expect(envelope).toMatchObject({ category: 'NOT_FOUND', code: 'REPLAY_SESSION_NOT_FOUND', received_value: 'nope' });
  });

  it('fails with REPLAY_EVENT_INVALID naming the seq of a malformed assistant payload', async () => {
    const broken = sourceLog.map((event) => (event.seq === 6 ? { ...event, payload: { text: 'no calls', stop_reason: 'end_turn' } } : event));
    const envelope = await envelopeOf(replay(broken));
    expect(envelope).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'REPLAY_EVENT_INVALID', failed_parameter: 'seq 6' });
  });
});
