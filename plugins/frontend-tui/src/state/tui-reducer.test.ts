import type { ClientEvent } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { chunk, confirmation, envelope, log, thought, turnWithTool, update, usage } from '../../test/session-events.js';
import { HISTORY_CHARS } from './history-budget.js';
import type { TuiAction } from './tui-action.js';
import { tuiReducer } from './tui-reducer.js';
import { liveToolLine } from '../layout/tool-lines.js';
import { initialState, type TuiState } from './tui-state.js';

const S = 'session-1';
const opened = (state = initialState()): TuiState => tuiReducer(state, { type: 'session.opened', sessionId: S, running: false });
const events = (state: TuiState, list: readonly ClientEvent[]): TuiState => tuiReducer(state, { type: 'events', events: list, at: Date.parse('2026-12-01T10:00:03.500Z') });
const run = (state: TuiState, ...actions: TuiAction[]): TuiState => actions.reduce(tuiReducer, state);
const kinds = (state: TuiState): string[] => state.finished.map((i) => i.kind);

describe('tuiReducer', () => {
  it('draws a whole turn from the log: prompt, answer, tool with its live result, final answer; nothing is left live', () => {
    const state = events(opened(), turnWithTool(S, 2));
    expect(kinds(state)).toEqual(['session', 'user', 'assistant', 'tool', 'assistant']);
    const tool = state.finished[3];
    expect(tool).toMatchObject({ kind: 'tool', title: 'read_file src/a.ts', end: 'completed', outcome: { text: 'export function parse() {}\nexport const VERSION = 2;' } });
    expect(state.stream).toEqual({ text: '', thought: '' });
    expect(state.tools).toEqual([]);
    expect(state.calls).toEqual({});
    expect(state.turn).toBe('idle');
    expect(state.model).toEqual({ provider: 'scripted', model: 'scripted-1' });
    expect(state.usage).toMatchObject({ sessionTokens: 2570, partial: false, costUsd: 0.009, turnTokens: 2570, used: 1330, size: 100_000 });
  });

  it('streams chunks and thinking into the live region until the message is logged', () => {
    let state = events(opened(), [thought(S, 'Hmm. '), chunk(S, '# Ti'), chunk(S, 'tle')]);
    expect(state.stream).toEqual({ text: '# Title', thought: 'Hmm. ' });
    expect(kinds(state)).toEqual(['session']);
    state = events(state, [log(S, 2, 'message.assistant', { text: '# Title', tool_calls: [], stop_reason: 'end_turn', provider: 'p', thinking: [{ text: 'Hmm.' }] }, 'model')]);
    expect(state.stream).toEqual({ text: '', thought: '' });
    expect(state.finished.at(-1)).toMatchObject({ kind: 'assistant', text: '# Title', thinking: ['Hmm.'] });
  });

  it('draws a replayed history (log events only, no updates) the same way, with calls and outcomes matched by id', () => {
    const history = turnWithTool(S, 2).filter((e) => e.type === 'log');
    const state = events(opened(), history);
    expect(kinds(state)).toEqual(['session', 'user', 'assistant', 'tool', 'assistant']);
    expect(state.finished[3]).toMatchObject({ title: 'read_file src/a.ts', end: 'completed' });
    // Without usage updates, the totals come from the events shown and say so.
    expect(state.usage).toMatchObject({ partial: true, sessionTokens: 2570 });
  });

  it('draws a continued tail at once, says how many earlier events the log holds, and stamps items with their seq', () => {
    const state = tuiReducer(opened(), { type: 'history', events: turnWithTool(S, 601).filter((e) => e.type === 'log'), fromSeq: 600, at: 0 });
    expect(state.finished.slice(1)).toMatchObject([
      { kind: 'notice', text: `600 earlier events are in the log: nodwyn log show ${S}` },
      { kind: 'user', seq: 601 },
      { kind: 'assistant', seq: 603 },
      { kind: 'tool', seq: 604 },
      { kind: 'assistant', seq: 605 },
    ]);
  });

  it('prints only the newest history that fits the budget when the tail is large, and counts the rest as earlier', () => {
    // Five answers fit the budget, a sixth would not.
    const big = 'x'.repeat(HISTORY_CHARS / 5 - 10);
    const events = Array.from({ length: 20 }, (_, i) => log(S, i + 1, 'message.assistant', { text: `${i} ${big}`, tool_calls: [], stop_reason: 'end_turn', provider: 'p' }, 'model'));
    const state = tuiReducer(opened(), { type: 'history', events, fromSeq: 0, at: 0 });
    const answers = state.finished.filter((i) => i.kind === 'assistant');
    expect(answers).toHaveLength(5);
    expect(answers.at(-1)).toMatchObject({ seq: 20 });
    const first = answers[0]!.seq!;
    expect(first).toBe(16);
    expect(state.finished[1]).toMatchObject({ kind: 'notice', text: `${first - 1} earlier events are in the log: nodwyn log show ${S}` });
  });

  it('shows a logged edit as a diff of its arguments, and a failure as its envelope', () => {
    const edit = { id: 'e1', name: 'edit_file', args: { path: 'a.ts', old_string: 'let a = 1;', new_string: 'const a = 1;' } };
    const shell = { id: 's1', name: 'shell', args: { command: 'npm test' } };
    const state = events(opened(), [
      log(S, 2, 'message.assistant', { text: '', tool_calls: [edit, shell], stop_reason: 'tool_use', provider: 'p' }, 'model'),
      log(S, 3, 'tool.completed', { call_id: 'e1', name: 'edit_file', content: 'edited a.ts' }),
      log(S, 4, 'tool.failed', { call_id: 's1', name: 'shell', envelope: envelope('SHELL_EXIT_NONZERO', 'The command exited 1; read its output.') }),
    ]);
    expect(state.finished[1]).toMatchObject({ kind: 'tool', title: 'edit_file a.ts', outcome: { diff: { path: 'a.ts', oldText: 'let a = 1;', newText: 'const a = 1;' } } });
    expect(state.finished[2]).toMatchObject({ kind: 'tool', title: 'shell npm test', end: 'failed', outcome: { envelope: { code: 'SHELL_EXIT_NONZERO', remediation: 'The command exited 1; read its output.' } } });
  });

  it('ends a cancelled turn: what streamed is kept as interrupted, a running tool as interrupted, and the turn says so', () => {
    let state = events(opened(), [
      log(S, 2, 'turn.started', { provider: 'p', strategy: 'default' }),
      update(S, { sessionUpdate: 'tool_call', toolCallId: '3:x', title: 'shell sleep 60', kind: 'execute', status: 'pending' }),
      chunk(S, 'Half an ans'),
    ]);
    state = run(state, { type: 'cancel.requested' });
    expect(state.turn).toBe('cancelling');
    state = events(state, [log(S, 3, 'turn.ended', { reason: 'cancelled', envelope: envelope('TURN_CANCELLED', 'You cancelled the turn.', 'CANCELLED') })]);
    expect(state.turn).toBe('idle');
    expect(state.finished.slice(1)).toMatchObject([
      { kind: 'assistant', text: 'Half an ans', partial: true },
      { kind: 'tool', title: 'shell sleep 60', end: 'interrupted' },
      { kind: 'turn', reason: 'cancelled' },
    ]);
  });

  it('shows a running tool\'s latest progress on its line, terminal escapes removed', () => {
    const state = events(opened(), [
      update(S, { sessionUpdate: 'tool_call', toolCallId: '3:x', title: 'mcp_build_run', kind: 'execute', status: 'pending' }),
      update(S, { sessionUpdate: 'tool_call_update', toolCallId: '3:x', status: 'in_progress', _meta: { nodwyn: { progress: { progress: 2, total: 5, message: 'linking\u001b[2J' } } } }),
    ]);
    expect(state.tools[0]).toMatchObject({ status: 'in_progress', progress: '2/5 linking' });
    const line = liveToolLine(state.tools[0]!, '⠋', state.tools[0]!.startedAt, 80);
    expect(line.map((span) => span.text).join('')).toContain('running · 2/5 linking');
  });

  it('merges the question told to every client with the one asked of this client, and closes it when decided', () => {
    let state = events(opened(), [confirmation({ sessionId: S, callId: 'k1', tool: 'shell', tier: 'destructive', reason: 'rm -rf build' })]);
    expect(state.questions).toMatchObject([{ callId: 'k1', tool: 'shell', asked: false }]);
    state = run(state, {
      type: 'question.asked',
      question: { sessionId: S, callId: 'k1', toolCallId: '3:k1', tool: 'shell', title: 'shell rm -rf build', tier: '', reason: '', security: false, options: [], asked: true },
    });
    expect(state.questions).toHaveLength(1);
    expect(state.questions[0]).toMatchObject({ tool: 'shell', tier: 'destructive', reason: 'rm -rf build', title: 'shell rm -rf build', asked: true });
    state = events(state, [log(S, 4, 'confirmation.decided', { call_id: 'k1', name: 'shell', granted: true, by: 'client-2', option: 'allow_once' })]);
    expect(state.questions).toEqual([]);
    expect(state.finished.at(-1)).toMatchObject({ kind: 'notice', text: 'Allowed shell (allow once), answered by client-2' });
  });

  it('ignores events of sessions it does not show', () => {
    const state = events(opened(), [chunk('other', 'x'), log('other', 2, 'message.user', { text: 'y' }), confirmation({ sessionId: 'other', callId: 'z' })]);
    expect(state.stream.text).toBe('');
    expect(kinds(state)).toEqual(['session']);
    expect(state.questions).toEqual([]);
  });

  it('keeps a prompt as an echo until the log records it, and prints an agent command at once', () => {
    let state = run(opened(), { type: 'prompt.sent', text: 'hello', logged: true });
    expect(state.echo).toBe('hello');
    expect(state.turn).toBe('sending');
    state = events(state, [log(S, 2, 'message.user', { text: 'hello' }, 'user')]);
    expect(state.echo).toBeUndefined();
    expect(state.history[0]).toBe('hello');
    state = run(state, { type: 'prompt.ended' }, { type: 'prompt.sent', text: '/tools', logged: false });
    expect(state.finished.at(-1)).toMatchObject({ kind: 'user', text: '/tools' });
    state = events(state, [chunk(S, '- read_file (read)')]);
    state = run(state, { type: 'prompt.ended' });
    expect(state.finished.at(-1)).toMatchObject({ kind: 'assistant', text: '- read_file (read)' });
    expect(state.stream.text).toBe('');
    expect(state.turn).toBe('idle');
  });

  it("takes the agent's commands from available_commands_update and keeps them for the next session", () => {
    let state = events(opened(), [
      update(S, { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'title', description: 'Set the title', input: { hint: 'the new title' } }, { name: 'verify', description: 'Check the chain' }] }),
    ]);
    expect(state.commands).toEqual([
      { name: 'title', description: 'Set the title', hint: 'the new title' },
      { name: 'verify', description: 'Check the chain' },
    ]);
    state = tuiReducer(state, { type: 'session.opened', sessionId: 'session-2', running: true });
    expect(state.commands).toHaveLength(2);
    expect(state.turn).toBe('running');
    // The first session's items stay (they are in the scrollback); the new one's header follows them.
    expect(state.finished.map((i) => i.kind)).toEqual(['session', 'session']);
    expect(state.finished.at(-1)).toMatchObject({ kind: 'session', sessionId: 'session-2' });
  });

  it('follows the connection and says when it is lost and back', () => {
    let state = events(opened(), [{ type: 'connection', state: 'reconnecting', attempt: 2 }]);
    expect(state.connection).toEqual({ state: 'reconnecting', attempt: 2 });
    state = events(state, [{ type: 'connection', state: 'open' }]);
    expect(state.finished.at(-1)).toMatchObject({ kind: 'notice', text: expect.stringContaining('Reconnected') });
    state = events(state, [{ type: 'connection', state: 'closed', error: 'ECONNREFUSED' }]);
    expect(state.finished.at(-1)).toMatchObject({ kind: 'notice', tone: 'error', text: expect.stringContaining('ECONNREFUSED') });
  });

  it('keeps per-delta work off the finished items: a chunk leaves the finished list as it was', () => {
    const before = events(opened(), turnWithTool(S, 2));
    const after = events(before, [chunk(S, 'more')]);
    expect(after.finished).toBe(before.finished);
  });

  it('turns a plan into a panel item with its verdict, and a session usage update into totals', () => {
    const state = events(opened(), [
      log(S, 2, 'plan.revise', { plan: '1. Read\n2. Fix', by: 'judge', round: 1, score: 0.4, feedback: 'Add a test.' }),
      log(S, 3, 'plan.approved', { plan: '- Read\n- Fix\n- Test', by: 'judge', round: 2, score: 0.9 }),
      usage(S, { input: 10, output: 5 }, { input: 100, output: 50, cost: 1.5, lastCost: 0.1 }),
    ]);
    expect(state.finished.slice(1)).toMatchObject([
      { kind: 'plan', entries: ['Read', 'Fix'], verdict: { approved: false, score: 0.4, round: 1, feedback: 'Add a test.' } },
      { kind: 'plan', entries: ['Read', 'Fix', 'Test'], verdict: { approved: true, score: 0.9, by: 'judge' } },
    ]);
    expect(state.usage).toMatchObject({ sessionTokens: 150, costUsd: 1.5, partial: false });
  });
});
