import type { ClientEvent, SessionSummary } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { chunk, envelope, log, thought, turnWithTool, update } from '../../test/session-events.js';
import { startTui } from '../../test/tui-harness.js';
import { TAIL_EVENTS } from '../session/tui-controller.js';

const ID = 'session-1';

/** The events of `turnWithTool` up to (not including) the first one matching `until`. */
function before(events: ClientEvent[], until: (e: ClientEvent) => boolean): [ClientEvent[], ClientEvent[]] {
  const i = events.findIndex(until);
  return [events.slice(0, i), events.slice(i)];
}

describe('the App', () => {
  it('creates no session until the first prompt, so quitting at once leaves nothing in the log', async () => {
    const tui = await startTui();
    expect(tui.frame()).toContain('Ask anything');
    await tui.type('\u0003', '\u0003');
    await expect(tui.controller.exited).resolves.toBe(0);
    expect(tui.client.calls.map((c) => c.method)).not.toContain('newSession');
    await tui.close();
  });

  it('runs a turn live: the prompt creates the session, the answer streams, the tool spins then lands in the scrollback', async () => {
    const tui = await startTui();
    await tui.type('What does src/a.ts export?', '\r');
    const methods = tui.client.calls.map((c) => c.method);
    expect(methods.slice(methods.indexOf('newSession'))).toEqual(['newSession', 'attach', 'prompt']);
    expect(tui.client.calls.find((c) => c.method === 'attach')?.args).toEqual([ID, 0]);
    expect(tui.client.calls.find((c) => c.method === 'prompt')?.args).toEqual([ID, 'What does src/a.ts export?']);

    const events = turnWithTool(ID, 2);
    const [streaming, rest] = before(events, (e) => e.type === 'update' && e.update.sessionUpdate === 'tool_call');
    await tui.emit(...streaming);
    expect(tui.frame()).toContain('› What does src/a.ts export?');
    expect(tui.frame()).toContain('Let me read it.');
    const [running, finishing] = before(rest, (e) => e.type === 'update' && e.update.sessionUpdate === 'tool_call_update' && e.update.status === 'completed');
    await tui.emit(...running);
    expect(tui.frame()).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] read_file src\/a\.ts \([\d.]+s\) running/);
    await tui.emit(...finishing);
    const frame = tui.frame();
    expect(frame).toContain('✓ read_file src/a.ts');
    expect(frame).toContain('⎿ export function parse() {}');
    expect(frame).toContain('It exports two things:');
    expect(frame).toContain('• parse');
    expect(frame).toContain('• VERSION');
    expect(frame).not.toContain('running');
    expect(frame).toContain('scripted-1 · 2.6k tok $0.009 · turn 2.6k $0.009 · ctx 1%');
    // Each message appears once: the streamed copy was replaced by the logged one.
    expect(frame.match(/Let me read it\./g)).toHaveLength(1);
    await tui.close();
  });

  it('continues a session from its tail: only the last events are loaded, and it says where the rest is', async () => {
    const summary: SessionSummary = { sessionId: 'old', workspace: '/work/project', title: 'Parser work', state: 'idle', lastActivity: new Date().toISOString(), events: 1000 };
    const tui = await startTui({ args: ['--session', 'old'], answers: { listSessions: async () => [summary] } });
    expect(tui.client.calls.find((c) => c.method === 'attach')?.args).toEqual(['old', 1000 - TAIL_EVENTS]);
    await tui.emit(...turnWithTool('old', 1001 - TAIL_EVENTS).filter((e) => e.type === 'log'));
    const frame = tui.frame();
    expect(frame).toContain('── session old · Parser work');
    expect(frame).toContain(`${1000 - TAIL_EVENTS} earlier events are in the log: nodwyn log show old`);
    expect(frame).toContain('› What does src/a.ts export?');
    expect(frame).toContain('✓ read_file src/a.ts');
    expect(frame).toContain('≥2.6k tok');
    await tui.close();
  });

  it('says so when a session cannot be continued, and starts a new one with the next prompt', async () => {
    const unknown = Object.assign(new Error('not found'), { envelope: envelope('SESSION_NOT_FOUND', 'No session has that id; list them with nodwyn log list.', 'NOT_FOUND') });
    const tui = await startTui({ args: ['--session', 'nope'], answers: { attach: async () => Promise.reject(unknown) } });
    expect(tui.frame()).toContain('✗ SESSION_NOT_FOUND: No session has that id; list them with nodwyn log list.');
    expect(tui.frame()).toContain('New session: it starts with your next prompt.');
    expect(tui.controller.sessionId).toBeUndefined();
    await tui.close();
  });

  it('cancels the running turn at once with Esc, and shows that it was cancelled', async () => {
    const tui = await startTui();
    await tui.type('long job', '\r');
    await tui.emit(log(ID, 2, 'message.user', { text: 'long job' }, 'user'), log(ID, 3, 'turn.started', { provider: 'p', strategy: 'default' }), chunk(ID, 'Starting'));
    await tui.type('\u001B');
    expect(tui.client.calls.filter((c) => c.method === 'cancel').map((c) => c.args)).toEqual([[ID]]);
    expect(tui.frame()).toContain('cancelling…');
    await tui.emit(log(ID, 4, 'turn.ended', { reason: 'cancelled', envelope: envelope('TURN_CANCELLED', 'You cancelled the turn.', 'CANCELLED') }));
    expect(tui.frame()).toContain('■ Cancelled');
    expect(tui.frame()).toContain('Starting');
    expect(tui.frame()).toContain('Ask anything');
    await tui.close();
  });

  it("sends the agent's commands as the prompt text and prints their answer; lists every command in /help", async () => {
    const tui = await startTui();
    await tui.type('hi', '\r');
    await tui.emit(update(ID, { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'tools', description: 'List the tools the model can call' }, { name: 'verify', description: "Check the log's hash chain" }] }));
    await tui.type('/verify', '\r');
    expect(tui.client.calls.filter((c) => c.method === 'prompt').map((c) => c.args[1])).toEqual(['hi', '/verify']);
    await tui.type('/help', '\r');
    const frame = tui.frame();
    expect(frame).toContain('/verify');
    expect(frame).toContain("Check the log's hash chain");
    expect(frame).toContain('/resume [id]');
    expect(frame).toContain('Esc');
    expect(tui.client.calls.filter((c) => c.method === 'prompt')).toHaveLength(2);
    await tui.close();
  });

  it('prints an agent command answer that streams without a logged message once its prompt ends', async () => {
    let finish: () => void = () => undefined;
    const tui = await startTui({
      answers: {
        prompt: (_id, text) => (text === '/tools' ? new Promise((resolve) => (finish = () => resolve({ stopReason: 'end_turn' }))) : Promise.resolve({ stopReason: 'end_turn' })),
      },
    });
    await tui.type('hello', '\r');
    await tui.emit(update(ID, { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'tools', description: 'List the tools' }] }));
    await tui.type('/tools', '\r');
    await tui.emit(chunk(ID, '- read_file (read): Read a file\n- shell (destructive): Run a command'));
    finish();
    await tui.type();
    expect(tui.frame()).toContain('› /tools');
    expect(tui.frame()).toContain('• shell (destructive): Run a command');
    await tui.close();
  });

  it('runs /sessions, /new, /fork and /quit itself', async () => {
    const sessions: SessionSummary[] = [{ sessionId: ID, workspace: '/work/project', title: 'First', state: 'idle', lastActivity: new Date().toISOString(), events: 12 }];
    const tui = await startTui({ answers: { listSessions: async () => sessions } });
    await tui.type('/sessions', '\r');
    expect(tui.frame()).toContain(`${ID}  First  · idle · now · 12 events`);
    await tui.type('/fork', '\r');
    expect(tui.frame()).toContain('There is no session to fork yet');
    await tui.type('go', '\r');
    await tui.type('/fork 5', '\r');
    expect(tui.client.calls.find((c) => c.method === 'fork')?.args).toEqual([ID, 5]);
    expect(tui.frame()).toContain('── session session-2');
    expect(tui.frame()).toContain(`Forked from ${ID} at seq 5.`);
    await tui.type('/new', '\r');
    expect(tui.frame()).toContain('New session: it starts with your next prompt.');
    expect(tui.controller.sessionId).toBeUndefined();
    await tui.type('/quit', '\r');
    await expect(tui.controller.exited).resolves.toBe(0);
    await tui.close();
  });

  it('keeps the text and says why when a prompt is refused, in one line', async () => {
    const refusal = Object.assign(new Error('busy'), { envelope: envelope('SESSION_BUSY', 'Session session-1 is running a prompt; wait for its answer.') });
    const tui = await startTui({ answers: { prompt: async () => Promise.reject(refusal) } });
    await tui.type('first', '\r');
    expect(tui.frame()).toContain('✗ SESSION_BUSY: Session session-1 is running a prompt; wait for its answer. (Up brings your');
    expect(tui.frame()).not.toMatch(/\bat .*\.ts:\d+/);
    await tui.close();
  });

  it('refuses a second prompt while a turn runs and keeps what was typed', async () => {
    const tui = await startTui();
    await tui.type('one', '\r');
    await tui.emit(log(ID, 2, 'turn.started', { provider: 'p', strategy: 'default' }));
    await tui.type('two', '\r');
    expect(tui.client.calls.filter((c) => c.method === 'prompt')).toHaveLength(1);
    expect(tui.frame()).toContain('A turn is running');
    expect(tui.frame()).toContain('› two');
    await tui.close();
  });

  it('shows thinking dimmed and folded, and Ctrl+T unfolds it', async () => {
    const tui = await startTui();
    await tui.type('think', '\r');
    await tui.emit(thought(ID, 'First I will look at the parser.\nThen the tests.'));
    expect(tui.frame()).toContain('✻ Thinking (2 lines; Ctrl+T shows it)');
    expect(tui.frame()).not.toContain('look at the parser');
    await tui.type('\u0014');
    expect(tui.frame()).toContain('✻ First I will look at the parser.');
    await tui.close();
  });

  it('shows a clear message in a terminal too small, and lays out again when it grows, keeping the input', async () => {
    const tui = await startTui({ columns: 30, rows: 8 });
    expect(tui.frame().replace(/\s+/g, ' ')).toContain('Terminal too small (30×8): nodwyn needs at least 40×10.');
    expect(tui.frame()).not.toContain('Ask anything');
    // A resize is drawn by React's scheduler, a few milliseconds later.
    tui.ui.stdout.resize(80, 24);
    await tui.until((frame) => frame.includes('Ask anything'));
    await tui.type('kept');
    expect(tui.frame()).not.toContain('too small');
    tui.ui.stdout.resize(35, 24);
    await tui.until((frame) => frame.includes('too small'));
    expect(tui.frame()).not.toContain('kept');
    tui.ui.stdout.resize(80, 24);
    await tui.until((frame) => !frame.includes('too small'));
    expect(tui.frame()).toContain('› kept');
    await tui.close();
  });

  it('writes colours only when allowed (NO_COLOR draws the same screen without them)', async () => {
    const events = turnWithTool(ID, 2);
    const colored = await startTui({ color: true });
    await colored.type('x', '\r');
    await colored.emit(...events);
    expect(colored.ui.lastFrame()).toMatch(/\u001B\[3[1-7]m/);
    const plain = await startTui({ color: false });
    await plain.type('x', '\r');
    await plain.emit(...events);
    expect(plain.ui.lastFrame()).not.toMatch(/\u001B\[(3[0-7]|9[0-7])m/);
    expect(plain.frame()).toBe(colored.frame());
    await colored.close();
    await plain.close();
  });

  it("shows the daemon's connection state when attached, with a banner while it is not open", async () => {
    const tui = await startTui({ args: ['--attached'] });
    expect(tui.frame()).toContain('daemon ●');
    await tui.emit({ type: 'connection', state: 'reconnecting', attempt: 2 });
    expect(tui.frame()).toContain("The daemon's connection dropped; reconnecting (attempt 2)");
    await tui.emit({ type: 'connection', state: 'open' });
    expect(tui.frame()).not.toContain('reconnecting');
    expect(tui.frame()).toContain('Reconnected to the daemon');
    await tui.close();
  });
});
