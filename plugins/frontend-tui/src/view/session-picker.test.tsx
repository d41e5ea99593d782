import type { SessionSummary } from '@nodwyn/protocol';
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { startTui } from '../../test/tui-harness.js';
import { TAIL_EVENTS } from '../session/tui-controller.js';
import { KeyRouterProvider } from './key-router.js';
import { SessionPicker } from './session-picker.js';

const tick = (ms = 20): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const strip = (s: string | undefined): string => (s ?? '').replace(/\u001B\[[0-9;]*m/g, '');
const minutesAgo = (m: number): string => new Date(Date.now() - m * 60_000).toISOString();
const SESSIONS: SessionSummary[] = [
  { sessionId: 's-new', workspace: '/work/project', title: 'Fix the parser', state: 'running', lastActivity: minutesAgo(2), events: 40 },
  { sessionId: 's-old', workspace: '/work/project', title: 'Write the docs', state: 'idle', lastActivity: minutesAgo(60 * 26), events: 1200 },
];

describe('the session picker', () => {
  it('lists titles with their last activity, the selected one with its id, state and size', () => {
    const frame = strip(render(
        <KeyRouterProvider>
          <SessionPicker sessions={SESSIONS} width={80} rows={5} onPick={vi.fn()} />
        </KeyRouterProvider>,
      ).lastFrame());
    expect(frame).toContain('❯ Fix the parser · 2m ago');
    expect(frame).toContain('  Write the docs · 1d ago');
    expect(frame).toContain('s-new · running · 40 events');
  });

  it('picks with Down and Enter, and leaves with Esc', async () => {
    const onPick = vi.fn();
    const ui = render(
      <KeyRouterProvider>
        <SessionPicker sessions={SESSIONS} width={80} rows={5} onPick={onPick} />
      </KeyRouterProvider>,
    );
    // Keys are read once the picker's input handler is mounted; a loaded machine may take a while to get there.
    await tick();
    ui.stdin.write('\u001B[B');
    await vi.waitFor(() => expect(strip(ui.lastFrame())).toContain('s-old · idle · 1200 events'), { timeout: 2000 });
    ui.stdin.write('\r');
    await vi.waitFor(() => expect(onPick).toHaveBeenCalledWith('s-old'), { timeout: 2000 });
    ui.stdin.write('\u001B');
    await vi.waitFor(() => expect(onPick).toHaveBeenLastCalledWith(undefined), { timeout: 2000 });
  });

  it('opens first with --pick, and continues the chosen session from its tail', async () => {
    const tui = await startTui({ args: ['--pick'], answers: { listSessions: async () => SESSIONS } });
    expect(tui.frame()).toContain('Continue a session');
    await tui.type('\u001B[B', '\r');
    expect(tui.frame()).not.toContain('Continue a session');
    expect(tui.frame()).toContain('── session s-old · Write the docs');
    expect(tui.frame()).toContain(`${1200 - TAIL_EVENTS} earlier events are in the log: nodwyn log show s-old`);
    expect(tui.client.calls.find((c) => c.method === 'attach')?.args).toEqual(['s-old', 1200 - TAIL_EVENTS]);
    await tui.close();
  });
});
