import { connectDaemon, connectNode, readServeInfo } from '@nodwyn/client/node';
import type { ClientEvent, ConfirmationRequested } from '@nodwyn/protocol';
import type { ChildProcess } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CliSandbox } from './cli.js';

const clientInfo = { name: 'e2e', version: '1.0.0' };

/** Starts `nodwyn serve --port 0` and resolves with the URL it printed. */
async function startServe(sandbox: CliSandbox): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = sandbox.start(['serve', '--port', '0']);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
    void exited.then((code) => reject(new Error(`nodwyn serve exited ${code}: ${stderr}`)));
  });
  return { child, url, exited };
}

function events(list: ClientEvent[], type: ClientEvent['type']) {
  return list.filter((e) => e.type === type);
}

function answerText(list: ClientEvent[]): string {
  return list
    .flatMap((e) => (e.type === 'update' && e.update.sessionUpdate === 'agent_message_chunk' && e.update.content.type === 'text' ? [e.update.content.text] : []))
    .join('');
}

describe('nodwyn serve, the daemon, as a real process', () => {
  let sandbox: CliSandbox;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    sandbox = new CliSandbox();
    const script = sandbox.script([{ text: 'Making it.', toolCalls: [{ name: 'shell', args: { command: 'touch made.txt' } }] }, { text: 'Made it.' }]);
    writeFileSync(join(sandbox.home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    sandbox.remove();
  });

  async function serve() {
    const started = await startServe(sandbox);
    children.push(started.child);
    return started;
  }

  /** A daemon with a session whose prompt waits for a person's answer to its shell call. */
  async function questionPending() {
    const started = await serve();
    const client = await connectDaemon({ home: sandbox.home, clientInfo, reconnect: false });
    const questions: ConfirmationRequested[] = [];
    client.onEvent((e) => e.type === 'confirmation' && questions.push(e.request));
    const { sessionId } = await client.newSession(sandbox.workspace);
    await client.attach(sessionId, 0);
    const prompt = client.prompt(sessionId, 'make the file').catch((e: unknown) => e);
    await until(() => questions.length === 1);
    return { ...started, client, sessionId, prompt };
  }

  it('prints its URL, writes serve.json 0600, refuses a second daemon, and stops cleanly with --stop', async () => {
    const { url, exited } = await serve();
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/acp$/);
    const info = await readServeInfo(sandbox.home);
    expect(info).toMatchObject({ url, http: url.replace('ws://', 'http://').replace('/acp', '/') });
    expect(statSync(join(sandbox.home, 'serve.json')).mode & 0o777).toBe(0o600);
    const second = sandbox.run(['serve', '--port', '0']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('DAEMON_RUNNING');
    expect(second.stderr).toContain(url);
    const stop = await sandbox.runAsync(['serve', '--stop']);
    expect(stop.code).toBe(0);
    expect(await exited).toBe(0);
    expect(existsSync(join(sandbox.home, 'serve.json'))).toBe(false);
    expect(sandbox.run(['serve', '--stop']).code).toBe(1);
  });

  it('serves two clients one session: both see it live, the second answers, the first reattaches from its last seq', async () => {
    await serve();
    const first = await connectDaemon({ home: sandbox.home, clientInfo });
    const second = await connectDaemon({ home: sandbox.home, clientInfo: { ...clientInfo, name: 'second' } });
    const seenByFirst: ClientEvent[] = [];
    const seenBySecond: ClientEvent[] = [];
    first.onEvent((e) => seenByFirst.push(e));
    second.onEvent((e) => seenBySecond.push(e));
    const questions: ConfirmationRequested[] = [];
    second.onEvent((e) => e.type === 'confirmation' && questions.push(e.request));
    const { sessionId } = await first.newSession(sandbox.workspace);
    await first.attach(sessionId, 0);
    await second.attach(sessionId, 0);
    const answered = first.prompt(sessionId, 'make the file');
    await until(() => questions.length === 1);
    expect(questions[0]).toMatchObject({ tool: 'shell', security: false, options: [{ optionId: 'allow_once' }, { optionId: 'allow_always' }, { optionId: 'reject_once' }, { optionId: 'reject_always' }] });
    expect(await second.answerConfirmation(sessionId, questions[0]!.callId, 'allow_once')).toEqual({ accepted: true });
    expect((await answered).stopReason).toBe('end_turn');
    expect(existsSync(join(sandbox.workspace, 'made.txt'))).toBe(true);
    await until(() => answerText(seenBySecond).endsWith('Made it.') && answerText(seenByFirst).endsWith('Made it.'));
    expect(answerText(seenBySecond)).toBe(answerText(seenByFirst));

    const seen = first.lastSeq(sessionId);
    await first.close();
    second.onPermission(async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }));
    await second.prompt(sessionId, 'again');
    const back = await connectDaemon({ home: sandbox.home, clientInfo });
    const replayed: number[] = [];
    back.onEvent((e) => e.type === 'log' && replayed.push(e.event.seq));
    const { lastSeq } = await back.attach(sessionId, seen);
    const all = [...(events(seenByFirst, 'log') as Extract<ClientEvent, { type: 'log' }>[]).map((e) => e.event.seq), ...replayed];
    expect(all).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
    const decided = (events(seenBySecond, 'log') as Extract<ClientEvent, { type: 'log' }>[]).map((e) => e.event).filter((e) => e.type === 'confirmation.decided');
    expect(decided.map((e) => e.payload.by)).toEqual([expect.stringMatching(/^client-\d+:second$/), expect.stringMatching(/^client-\d+:second$/)]);
    await Promise.all([second.close(), back.close()]);
  });

  it('refuses a wrong token and a foreign Origin, answers bad frames, and goes on serving', async () => {
    const { url } = await serve();
    const info = await readServeInfo(sandbox.home);
    await expect(connectNode({ url, token: 'wrong', clientInfo, reconnect: false })).rejects.toMatchObject({ envelope: { http_status: 401 } });
    const foreign = await new Promise<number | undefined>((resolve) => {
      const socket = new WebSocket(url, { headers: { authorization: `Bearer ${info.token}`, origin: 'https://evil.example' } });
      socket.once('unexpected-response', (_req, res) => resolve(res.statusCode));
      socket.once('open', () => resolve(undefined));
      socket.once('error', () => undefined);
    });
    expect(foreign).toBe(403);
    const raw = new WebSocket(url, { headers: { authorization: `Bearer ${info.token}` } });
    const replies: { id: unknown; error?: { code: number } }[] = [];
    raw.on('message', (d) => replies.push(JSON.parse(String(d))));
    await new Promise((resolve) => raw.once('open', resolve));
    raw.send('not json');
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } }));
    await until(() => replies.length >= 2);
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: '_nodwyn/nope', params: {} }));
    await until(() => replies.length >= 3);
    expect(replies.map((r) => r.error?.code)).toEqual([-32700, undefined, -32601]);
    const closed = new Promise<number>((resolve) => raw.once('close', (code) => resolve(code)));
    raw.send('x'.repeat(5 * 1024 * 1024));
    expect(await closed).toBe(1009);
    const client = await connectDaemon({ home: sandbox.home, clientInfo });
    client.onPermission(async () => ({ outcome: { outcome: 'selected', optionId: 'reject_once' } }));
    const { sessionId } = await client.newSession(sandbox.workspace);
    expect((await client.prompt(sessionId, 'hi')).stopReason).toBe('end_turn');
    await client.close();
  });

  it('after a SIGKILL with a question pending, restarts with the question expired, the log intact and the session going on', async () => {
    const { child, exited, client, sessionId } = await questionPending();
    child.kill('SIGKILL');
    await exited;
    await client.close();

    await serve();
    const kinds = sandbox.events(sessionId).map((e) => [e.type, e.payload.reason]);
    expect(kinds.slice(-3)).toEqual([
      ['confirmation.expired', undefined],
      ['tool.failed', undefined],
      ['turn.ended', 'interrupted'],
    ]);
    expect(sandbox.run(['log', 'verify']).code).toBe(0);
    const again = await connectDaemon({ home: sandbox.home, clientInfo });
    again.onPermission(async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }));
    expect((await again.prompt(sessionId, 'go on')).stopReason).toBe('end_turn');
    const sessions = await again.listSessions();
    expect(sessions.find((s) => s.sessionId === sessionId)).toMatchObject({ state: 'idle', title: 'make the file' });
    await again.close();
  });

  it('ends a running turn as cancelled on SIGTERM and closes the database cleanly', async () => {
    const { child, exited, client, sessionId, prompt } = await questionPending();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await prompt).toBeDefined();
    await client.close();
    const ended = sandbox.events(sessionId).filter((e) => e.type === 'turn.ended');
    expect(ended.map((e) => e.payload.reason)).toEqual(['cancelled']);
    expect(existsSync(join(sandbox.home, 'serve.json'))).toBe(false);
    expect(existsSync(join(sandbox.home, 'nodwyn.db-wal')) ? statSync(join(sandbox.home, 'nodwyn.db-wal')).size : 0).toBe(0);
    expect(sandbox.run(['log', 'verify']).code).toBe(0);
  });
});

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
