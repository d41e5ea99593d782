import { toolProgressOf, type LogEvent } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { SessionProjector } from './session-projector.js';

let seq = 0;
function event(type: string, payload: Record<string, unknown>): LogEvent {
  seq += 1;
  return { session: 's', seq, ts: '2026-12-02T00:00:00.000Z', type, actor: 'kernel', payload, prev: '0'.repeat(64), hash: 'f'.repeat(64) };
}

const kinds: Record<string, 'read' | 'edit' | 'execute'> = { read_file: 'read', edit_file: 'edit', shell: 'execute' };
const projector = () => new SessionProjector('/repo', (name) => kinds[name] ?? 'other', () => 1000);

describe('SessionProjector', () => {
  it('replays a conversation as ACP updates: messages, thinking, calls with locations, results with diffs, usage and cost', () => {
    const p = projector();
    const updates = [
      event('session.created', { workspace: '/repo' }),
      event('message.user', { text: 'fix it' }),
      event('message.assistant', {
        text: 'Looking.',
        thinking: [{ text: 'plan' }, { text: 'hidden', redacted: true }],
        tool_calls: [
          { id: 'a', name: 'read_file', args: { path: 'src/x.ts', start_line: 3 } },
          { id: 'b', name: 'edit_file', args: { path: 'src/x.ts', old_string: 'x', new_string: 'y' } },
        ],
        usage: { input: 100, output: 20 },
        cost_usd: 0.01,
        stop_reason: 'tool_use',
        provider: 'p',
      }),
      event('tool.completed', { call_id: 'a', name: 'read_file', content: '1\tx' }),
      event('tool.completed', { call_id: 'b', name: 'edit_file', content: 'Edited.' }),
      event('tool.completed', { call_id: 'host_1', name: 'read_file', origin: 'host', content: 'not shown' }),
      event('message.assistant', { text: 'Done.', tool_calls: [], usage: { input: 150, output: 5 }, cost_usd: 0.02, stop_reason: 'end_turn', provider: 'p' }),
    ].flatMap((e) => p.project(e, 'replay'));
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_thought_chunk',
      'agent_message_chunk',
      'tool_call',
      'tool_call',
      'usage_update',
      'tool_call_update',
      'tool_call_update',
      'agent_message_chunk',
      'usage_update',
    ]);
    expect(updates[3]).toMatchObject({ toolCallId: '3:a', title: 'read_file src/x.ts', kind: 'read', status: 'pending', locations: [{ path: '/repo/src/x.ts', line: 3 }] });
    expect(updates[7]).toMatchObject({ toolCallId: '3:b', status: 'completed', content: [{ type: 'diff', path: '/repo/src/x.ts', oldText: 'x', newText: 'y' }, { type: 'content' }] });
    expect(updates[9]).toMatchObject({ used: 155, size: 1000, cost: { amount: 0.03, currency: 'USD' } });
  });

  it('live, skips the text that already streamed, and sends a failed call its envelope unchanged', () => {
    const p = projector();
    const envelope = { status: 'error', category: 'CONFIRMATION_REQUIRED', code: 'CONFIRMATION_DECLINED', remediation: 'The user declined.' };
    const live = [
      event('message.assistant', { text: 'streamed already', tool_calls: [{ id: 'c', name: 'shell', args: { command: 'rm -rf build' } }], stop_reason: 'tool_use', provider: 'p' }),
      event('tool.denied', { call_id: 'c', name: 'shell', stage: 'policy', envelope }),
    ].flatMap((e) => p.project(e, 'live'));
    expect(live.map((u) => u.sessionUpdate)).toEqual(['tool_call', 'tool_call_update']);
    expect(live[1]).toMatchObject({ status: 'failed', rawOutput: envelope, content: [{ type: 'content', content: { type: 'text', text: JSON.stringify(envelope) } }] });
    expect(p.started('c')).toEqual([{ sessionUpdate: 'tool_call_update', toolCallId: live[0]!.sessionUpdate === 'tool_call' ? live[0]!.toolCallId : '', status: 'in_progress' }]);
  });

  it('sends a running call\'s progress in _meta, which toolProgressOf reads back, and nothing for an unknown call', () => {
    const p = projector();
    const [call] = p.project(event('message.assistant', { tool_calls: [{ id: 'c', name: 'shell', args: { command: 'make' } }], stop_reason: 'tool_use', provider: 'p' }), 'live');
    const [update] = p.progress('c', { progress: 3, total: 10, message: 'compiling' });
    expect(update).toEqual({ sessionUpdate: 'tool_call_update', toolCallId: call!.sessionUpdate === 'tool_call' ? call!.toolCallId : '', status: 'in_progress', _meta: { nodwyn: { progress: { progress: 3, total: 10, message: 'compiling' } } } });
    expect(toolProgressOf(update!._meta)).toEqual({ progress: 3, total: 10, message: 'compiling' });
    expect(toolProgressOf({ nodwyn: { progress: { progress: 'lots' } } })).toBeUndefined();
    expect(p.progress('unknown', { progress: 1 })).toEqual([]);
  });

  it('shows a plan with its verdict, and a title', () => {
    const p = projector();
    const [plan] = p.project(event('plan.approved', { plan: '1. read the file\n2. fix the bug\n', by: 'judge', round: 1, score: 0.9 }), 'live');
    expect(plan).toMatchObject({ sessionUpdate: 'plan', entries: [{ content: 'read the file' }, { content: 'fix the bug' }], _meta: { nodwyn: { approved: true, by: 'judge', score: 0.9 } } });
    expect(p.project(event('session.titled', { title: 'Fix the bug' }), 'live')).toMatchObject([{ sessionUpdate: 'session_info_update', title: 'Fix the bug' }]);
  });
});

describe('SessionProjector from a tail', () => {
  it('adds a live session\'s new usage to the totals before it, read once when first needed', () => {
    const reads: number[] = [];
    const p = new SessionProjector('/repo', () => 'other', () => 1000, (seq) => {
      reads.push(seq);
      return { input: 1000, output: 100, costUsd: 1.5 };
    });
    const first = event('message.assistant', { text: '', tool_calls: [], usage: { input: 10, output: 5 }, cost_usd: 0.25, stop_reason: 'end_turn', provider: 'p' });
    expect(p.project(first, 'live')).toMatchObject([{ sessionUpdate: 'usage_update', cost: { amount: 1.75 } }]);
    p.project(event('message.assistant', { text: '', tool_calls: [], usage: { input: 1, output: 1 }, cost_usd: 0.25, stop_reason: 'end_turn', provider: 'p' }), 'live');
    expect(reads).toEqual([first.seq]);
  });
});
