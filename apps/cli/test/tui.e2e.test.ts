import { connectDaemon } from '@nodwyn/client/node';
import type { ConfirmationRequested } from '@nodwyn/protocol';
import type { ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, CliSandbox } from './cli.js';
import { TmuxPane } from './tmux.js';

// The model runs the person's prompt as a shell command, so each test picks what the tool does by typing it.
const SCRIPT = [{ text: 'Running it.', toolCalls: [{ name: 'shell', args: { command: '{{lastUserMessage}}' } }] }, { text: 'Ran **it**: {{lastToolResult}}' }];

describe('nodwyn in a real terminal (tmux, 100×30)', () => {
  let sandbox: CliSandbox;
  const panes: TmuxPane[] = [];
  let daemon: ChildProcess | undefined;

  beforeEach(() => {
    sandbox = new CliSandbox();
    const script = sandbox.script(SCRIPT);
    writeFileSync(join(sandbox.home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
  });
  afterEach(() => {
    for (const pane of panes.splice(0)) pane.kill();
    daemon?.kill('SIGKILL');
    sandbox.remove();
  });

  function open(args: string[] = []): TmuxPane {
    const pane = new TmuxPane([process.execPath, BIN, ...args], { cwd: sandbox.workspace, env: { ...sandbox.env, TERM: 'xterm-256color' } });
    panes.push(pane);
    return pane;
  }

  async function prompt(pane: TmuxPane, text: string): Promise<void> {
    await pane.waitFor('Ask anything');
    pane.type(text);
    // A person's Enter comes after the typing, never in the same read as the text (that would be a paste).
    await new Promise((resolve) => setTimeout(resolve, 100));
    pane.press('Enter');
  }

  it('streams an answer, takes a confirmation with one key, cancels a long tool with Esc, resumes, quits and continues with -c', async () => {
    const pane = open();
    await prompt(pane, 'touch made.txt');
    await pane.waitFor('[y] Allow once');
    expect(pane.screen()).toContain('Allow shell?');
    pane.press('y');
    await pane.waitFor('Ran it:');
    expect(existsSync(join(sandbox.workspace, 'made.txt'))).toBe(true);
    expect(pane.screen()).toMatch(/✓ shell touch made\.txt/);

    await prompt(pane, 'sleep 30');
    await pane.waitFor('[y] Allow once');
    pane.press('y');
    await pane.waitFor(/shell sleep 30 \(\d/);
    pane.press('Escape');
    await pane.waitFor('Cancelled');
    expect(pane.screen()).toContain('TOOL_CANCELLED');

    pane.type('/resume');
    await new Promise((resolve) => setTimeout(resolve, 100));
    pane.press('Enter');
    await pane.waitFor('touch made.txt', { ms: 5000 });
    pane.press('Enter');
    await pane.waitFor('Ask anything');
    pane.press('C-c');
    pane.press('C-c');
    await waitUntil(() => pane.exitStatus() !== undefined);
    expect(pane.exitStatus()).toBe(0);

    const again = open(['-c']);
    const screen = await again.waitFor('Cancelled', { history: true });
    expect(screen).toContain('touch made.txt');
    expect(screen).toContain('Cancelled');
    const [session] = sandbox.sessions();
    const events = sandbox.events(session!.id);
    expect(events.filter((e) => e.type === 'turn.ended').map((e) => e.payload.reason)).toEqual(['answer', 'cancelled']);
    expect(sandbox.run(['log', 'verify']).code).toBe(0);
  });

  it('shares a daemon session with a WebSocket client, which answers the confirmation and closes the dialog', async () => {
    daemon = sandbox.start(['serve', '--port', '0']);
    await new Promise((resolve) => daemon!.stdout!.once('data', resolve));
    const other = await connectDaemon({ home: sandbox.home, clientInfo: { name: 'other', version: '1.0.0' } });
    const questions: ConfirmationRequested[] = [];
    other.onEvent((e) => e.type === 'confirmation' && questions.push(e.request));
    const { sessionId } = await other.newSession(sandbox.workspace);
    await other.attach(sessionId, 0);
    const pane = open(['attach', '--session', sessionId]);
    await prompt(pane, 'touch shared.txt');
    await pane.waitFor('[y] Allow once');
    await waitUntil(() => questions.length === 1);
    expect(await other.answerConfirmation(sessionId, questions[0]!.callId, 'allow_once')).toEqual({ accepted: true });
    const screen = await pane.waitFor('Ran it:');
    expect(screen).not.toContain('[y] Allow once');
    expect(screen).toMatch(/answered by client-\d+:other/);
    expect(existsSync(join(sandbox.workspace, 'shared.txt'))).toBe(true);
    await other.close();
  });
});

async function waitUntil(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
