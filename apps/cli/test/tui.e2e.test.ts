import { connectDaemon } from '@nodwyn/client/node';
import { startWireServer } from '@nodwyn/testing';
import type { ConfirmationRequested } from '@nodwyn/protocol';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, CliSandbox } from './cli.js';
import { TmuxPane } from './tmux.js';

/** An SGR sequence that sets a foreground or background colour (39/49, the defaults, are no colour). */
const COLOUR = /\u001b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/;

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

describe('nodwyn in a real terminal, first run and a daemon that goes away', () => {
  let sandbox: CliSandbox;
  const panes: TmuxPane[] = [];
  const stops: (() => unknown)[] = [];

  beforeEach(() => {
    sandbox = new CliSandbox();
  });
  afterEach(async () => {
    for (const pane of panes.splice(0)) pane.kill();
    for (const stop of stops.splice(0)) await stop();
    sandbox.remove();
  });

  function open(args: string[] = []): TmuxPane {
    const pane = new TmuxPane([process.execPath, BIN, ...args], { cwd: sandbox.workspace, env: { ...sandbox.env, TERM: 'xterm-256color' } });
    panes.push(pane);
    return pane;
  }

  async function enter(pane: TmuxPane, text: string): Promise<void> {
    pane.type(text);
    await new Promise((resolve) => setTimeout(resolve, 100));
    pane.press('Enter');
  }

  it('offers a setup when no provider is configured, writes the choice, and the next prompt uses it', async () => {
    const model = await startWireServer('openai-chat', [{ kind: 'stream', text: ['Hello from ', 'the local model.'] }]);
    stops.push(() => model.close());
    const pane = open();
    await pane.waitFor('Set up a model provider');
    pane.press('Down', 'Down', 'Enter');
    await pane.waitFor('Base URL');
    pane.press('C-u');
    await enter(pane, model.url);
    await pane.waitFor('Model id');
    await enter(pane, 'local-model');
    await pane.waitFor('Ask anything');
    const config = readFileSync(join(sandbox.home, 'config.toml'), 'utf8');
    expect(config).toContain('default = "openai-compatible"');
    expect(config).toContain(`base_url = "${model.url}"`);
    await enter(pane, 'hi');
    await pane.waitFor('Hello from the local model.');
  });

  it('lays out at 40 columns, follows a resize to 300, and draws no colour with NO_COLOR', async () => {
    const script = sandbox.script([{ text: '# Title\n\nA **bold** answer with `code` that is long enough to wrap at forty columns for sure.' }]);
    writeFileSync(join(sandbox.home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
    const colour = new TmuxPane([process.execPath, BIN], { cwd: sandbox.workspace, env: { ...sandbox.env, TERM: 'xterm-256color' }, width: 40, height: 20 });
    panes.push(colour);
    await colour.waitFor('Ask anything');
    await enter(colour, 'hi');
    const narrow = await colour.waitFor('forty');
    expect(narrow.split('\n').every((line) => line.length <= 40)).toBe(true);
    expect(colour.styled()).toMatch(COLOUR);
    colour.resize(300, 30);
    await enter(colour, 'again');
    await colour.waitFor(/again/);
    const plain = new TmuxPane([process.execPath, BIN], { cwd: sandbox.workspace, env: { ...sandbox.env, TERM: 'xterm-256color', NO_COLOR: '1' }, width: 100, height: 20 });
    panes.push(plain);
    await plain.waitFor('Ask anything');
    await enter(plain, 'hi');
    await plain.waitFor('forty');
    expect(plain.styled()).not.toMatch(COLOUR);
  });

  it('shows a banner when the daemon goes away, reconnects to the one started next, and resumes the session', async () => {
    const script = sandbox.script([{ text: 'Answer {{lastUserMessage}}.' }]);
    writeFileSync(join(sandbox.home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
    const serve = async () => {
      const daemon = sandbox.start(['serve', '--port', '0']);
      await new Promise((resolve) => daemon.stdout!.once('data', resolve));
      const exited = new Promise((resolve) => daemon.once('exit', resolve));
      stops.push(() => daemon.kill('SIGKILL'));
      return { daemon, exited };
    };
    const first = await serve();
    const pane = open();
    await pane.waitFor('daemon');
    await enter(pane, 'one');
    await pane.waitFor('Answer one.');
    first.daemon.kill('SIGTERM');
    await first.exited;
    await pane.waitFor(/reconnecting/);
    await serve();
    await pane.waitFor(/daemon ●/, { ms: 20_000 });
    await enter(pane, 'two');
    await pane.waitFor('Answer two.');
    const [session] = sandbox.sessions();
    expect(sandbox.events(session!.id).filter((e) => e.type === 'message.user').map((e) => e.payload.text)).toEqual(['one', 'two']);
  });
});

async function waitUntil(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
