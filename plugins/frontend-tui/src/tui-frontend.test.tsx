import { definePlugin } from '@nodwyn/plugin-api';
import { describeFrontendConformance, frontendLaunch } from '@nodwyn/testing';
import { describe, expect, it } from 'vitest';
import { fakeTerminal } from '../test/fake-terminal.js';
import { plain, settle } from '../test/terminal-text.js';
import { EXIT } from './errors.js';
import { loadTuiModule } from './load-tui.js';
import { frontendTuiPlugin } from './plugin.js';

// With CI set, ink would hold every frame until exit; the TUI loads it as if unset, and puts CI back.
const ciBefore = process.env['CI'];
process.env['CI'] = 'true';
const { runTui, tuiFrontend } = await loadTuiModule();
const ciAfterLoad = process.env['CI'];
if (ciBefore === undefined) delete process.env['CI'];
else process.env['CI'] = ciBefore;

// The plugin as the app loads it: under vitest there is no terminal, so it says so and ends.
describeFrontendConformance(frontendTuiPlugin);

// The same front end drawing on a terminal: the real ink render, its abort and its clean-up.
describeFrontendConformance(
  definePlugin({
    manifest: frontendTuiPlugin.manifest,
    register(ctx) {
      ctx.frontends.register(tuiFrontend(() => fakeTerminal()));
    },
  }),
);

describe('runTui', () => {
  it('loads without the CI variables in sight and puts them back', () => {
    expect(ciAfterLoad).toBe('true');
  });

  it('draws on the terminal until the launch is aborted, then ends with 130, leaves the client open and restores the terminal', async () => {
    const terminal = fakeTerminal();
    const { launch, client, abort } = frontendLaunch({ workspace: '/work/project', args: ['--session', 's-1'] });
    const running = runTui(launch, terminal);
    await settle(60);
    expect(plain(terminal.stdout.frames.join(''))).toContain('Ask anything');
    abort();
    await expect(running).resolves.toBe(EXIT.aborted);
    expect(client.closed).toBe(false);
    expect(client.calls.map((c) => c.method)).toContain('detach');
    const written = terminal.stdout.frames.join('');
    expect(written.startsWith('\u001B[?2004h')).toBe(true);
    expect(written).toContain('\u001B[?2004l');
  });

  it('ends with 0 on /quit and says how to continue the session', async () => {
    const terminal = fakeTerminal();
    const { launch } = frontendLaunch({ workspace: '/work/project', args: ['--session', 's-1'] });
    const running = runTui(launch, terminal);
    await settle(60);
    for (const key of ['/quit', '\r']) {
      terminal.stdin.write(key);
      await settle(20);
    }
    await expect(running).resolves.toBe(EXIT.ok);
    expect(terminal.stdout.frames.at(-1)).toBe('Session s-1: nodwyn --resume s-1 continues it.\n');
  });

  it('refuses to draw without a terminal, in one line on stderr', async () => {
    const terminal = fakeTerminal();
    Object.defineProperty(terminal.stdin, 'isTTY', { value: false });
    const { launch, client } = frontendLaunch({ workspace: '/work/project' });
    await expect(runTui(launch, terminal)).resolves.toBe(EXIT.noTerminal);
    expect(terminal.stderr.frames.join('')).toMatch(/^nodwyn: the terminal UI needs an interactive terminal; .*\n$/);
    expect(client.calls).toEqual([]);
  });

  it('ends quietly with 0 when the terminal goes away (a broken pipe)', async () => {
    const terminal = fakeTerminal();
    const { launch } = frontendLaunch({ workspace: '/work/project' });
    const running = runTui(launch, terminal);
    await settle(60);
    const written = terminal.stdout.frames.length;
    terminal.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await expect(running).resolves.toBe(EXIT.ok);
    expect(terminal.stderr.frames).toEqual([]);
    expect(terminal.stdout.frames.slice(written).join('')).not.toContain('\u001B[?2004l');
  });

  it('ends at once, sending nothing, when started already aborted', async () => {
    const { launch, client, abort } = frontendLaunch({ workspace: '/work/project' });
    abort();
    await expect(runTui(launch, fakeTerminal())).resolves.toBe(EXIT.aborted);
    expect(client.calls).toEqual([]);
  });
});
