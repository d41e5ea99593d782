import type { ClientEvent, LogEvent } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { emptySession, type SessionState } from './session-items.js';
import { reduceSession } from './session-reducer.js';

const S = 's1';
const hash = '0'.repeat(64);
let ts = 0;
const log = (seq: number, type: string, payload: Record<string, unknown>, actor = 'kernel'): ClientEvent => ({
  type: 'log',
  sessionId: S,
  event: { session: S, seq, ts: new Date(++ts * 1000).toISOString(), type, actor, payload, prev: hash, hash } as LogEvent,
});
const update = (u: Record<string, unknown>): ClientEvent => ({ type: 'update', sessionId: S, update: u } as unknown as ClientEvent);
const run = (events: ClientEvent[], state: SessionState = emptySession(S)) => events.reduce((s, event) => reduceSession(s, { type: 'client', event }), state);

describe('reduceSession', () => {
  it('streams the answer from chunks, then keeps the logged message as an item at its seq', () => {
    let state = run([log(1, 'session.created', { workspace: '/w' }), log(2, 'message.user', { text: 'hi' }, 'user'), log(3, 'turn.started', {})]);
    state = run([update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '**He' } }), update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'llo**' } })], state);
    expect(state.stream.text).toBe('**Hello**');
    expect(state.turn).toBe('running');
    state = run([log(4, 'message.assistant', { text: '**Hello**', provider: 'scripted', model: 'm', usage: { input: 10, output: 5 }, cost_usd: 0.01 }, 'model'), log(5, 'turn.ended', { reason: 'answer' })], state);
    expect(state.stream.text).toBe('');
    expect(state.items.map((i) => [i.kind, i.seq])).toEqual([['user', 2], ['assistant', 4]]);
    expect(state.status).toMatchObject({ provider: 'scripted', model: 'm', sessionTokens: 15, costUsd: 0.01 });
    expect(state.workspace).toBe('/w');
    expect(state.turn).toBe('idle');
  });

  it('follows a tool call from its update to its logged outcome, keeping the diff and showing an envelope', () => {
    let state = run([
      log(1, 'message.assistant', { text: '', tool_calls: [{ id: 'c1', name: 'edit_file', args: { path: 'a.ts', old_string: 'x', new_string: 'y' } }, { id: 'c2', name: 'shell', args: { command: 'ls' } }] }, 'model'),
      update({ sessionUpdate: 'tool_call_update', toolCallId: '1:c1', status: 'completed', content: [{ type: 'diff', path: '/w/a.ts', oldText: 'x', newText: 'y' }] }),
    ]);
    expect(state.tools.map((t) => [t.title, t.status])).toEqual([['edit_file a.ts', 'completed'], ['shell ls', 'pending']]);
    const envelope = { status: 'error', category: 'PERMISSION_DENIED', code: 'GUARD_DENIED', remediation: 'Ask.' };
    state = run([log(2, 'tool.completed', { call_id: 'c1', name: 'edit_file', content: 'edited' }), log(3, 'tool.denied', { call_id: 'c2', name: 'shell', envelope })], state);
    expect(state.tools).toEqual([]);
    const [edit, shell] = state.items;
    expect(edit).toMatchObject({ kind: 'tool', status: 'completed', outcome: { text: 'edited', diff: { path: '/w/a.ts', newText: 'y' } } });
    expect(shell).toMatchObject({ kind: 'tool', status: 'denied', title: 'shell ls', outcome: { envelope: { code: 'GUARD_DENIED', remediation: 'Ask.' } } });
  });

  it('shows a running tool\'s latest progress and ignores malformed progress', () => {
    let state = run([
      log(1, 'message.assistant', { text: '', tool_calls: [{ id: 'c1', name: 'shell', args: { command: 'make' } }] }, 'model'),
      update({ sessionUpdate: 'tool_call_update', toolCallId: '1:c1', status: 'in_progress', _meta: { nodwyn: { progress: { progress: 3, total: 10, message: 'compiling' } } } }),
    ]);
    expect(state.tools[0]).toMatchObject({ status: 'in_progress', progress: '3/10 compiling' });
    state = run([update({ sessionUpdate: 'tool_call_update', toolCallId: '1:c1', _meta: { nodwyn: { progress: { progress: 'all' } } } })], state);
    expect(state.tools[0]).toMatchObject({ progress: '3/10 compiling' });
  });

  it('holds a confirmation until the log says another client decided it', () => {
    const request = { sessionId: S, callId: 'k1', toolCallId: '1:c1', tool: 'shell', tier: 'destructive', reason: 'rm', security: false, options: [] };
    let state = run([{ type: 'confirmation', request }, { type: 'confirmation', request }, { type: 'confirmation', request: { ...request, sessionId: 'other' } }]);
    expect(state.questions).toHaveLength(1);
    state = run([log(9, 'confirmation.decided', { call_id: 'k1', name: 'shell', granted: true, option: 'allow_once', by: 'client:tui' })], state);
    expect(state.questions).toEqual([]);
    expect(state.items.at(-1)).toMatchObject({ kind: 'notice', text: 'Allowed shell (allow once), answered by client:tui' });
  });

  it('shows plans, the status line from usage updates, and a turn that did not end with an answer', () => {
    let state = run([
      update({ sessionUpdate: 'plan', entries: [{ content: 'read', status: 'pending', priority: 'medium' }] }),
      update({ sessionUpdate: 'usage_update', used: 1200, size: 100_000, cost: { amount: 0.5, currency: 'USD' }, _meta: { nodwyn: { session: { input: 1000, output: 200 } } } }),
      log(1, 'plan.approved', { plan: '1. read\n2. write' }),
      log(2, 'turn.ended', { reason: 'cancelled', envelope: { status: 'error', category: 'CANCELLED', code: 'TURN_CANCELLED', remediation: 'Prompt again.' } }),
    ]);
    expect(state.plan).toEqual([{ content: 'read', status: 'pending' }]);
    expect(state.status).toMatchObject({ used: 1200, size: 100_000, costUsd: 0.5, sessionTokens: 1200 });
    expect(state.items.map((i) => i.kind)).toEqual(['plan', 'turn']);
    expect(state.items[0]).toMatchObject({ entries: ['read', 'write'], approved: true });
    expect(state.items[1]).toMatchObject({ reason: 'cancelled', envelope: { code: 'TURN_CANCELLED' } });
  });

  it('puts an earlier page of the log before what is shown, ignoring events already there and other sessions', () => {
    let state = run([log(5, 'message.user', { text: 'late' }, 'user'), { type: 'log', sessionId: 'x', event: { session: 'x', seq: 1, ts: '', type: 'message.user', actor: 'user', payload: { text: 'no' }, prev: hash, hash } }]);
    expect(state.firstSeq).toBe(5);
    state = reduceSession(state, { type: 'earlier', events: [log(3, 'message.user', { text: 'early' }, 'user'), log(5, 'message.user', { text: 'dup' }, 'user')].map((e) => (e as { event: LogEvent }).event) });
    expect(state.items.map((i) => (i.kind === 'user' ? i.text : i.kind))).toEqual(['early', 'late']);
    expect(state.firstSeq).toBe(3);
    expect(new Set(state.items.map((i) => i.key)).size).toBe(2);
  });
});
