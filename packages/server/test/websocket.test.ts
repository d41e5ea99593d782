import type { ClientApp, SessionNotification } from '@agentclientprotocol/sdk';
import type { LogEvent } from '@nodwyn/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { readDaemonFile, startDaemon, type Daemon } from '../src/index.js';
import { socketStream } from '../src/socket-stream.js';
import { recordingClient, Sandbox, until } from './harness.js';

const info = { name: 'nodwyn', version: '0.0.0-test' };

/** Opens a WebSocket to the daemon; resolves once open, rejects with the HTTP status of a refused upgrade. */
function open(url: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

describe('nodwyn serve over WebSocket', () => {
  let sandbox: Sandbox;
  let daemon: Daemon;
  let sockets: WebSocket[];

  beforeEach(async () => {
    sandbox = new Sandbox();
    sockets = [];
    daemon = await startDaemon({ home: sandbox.home, port: 0, runtime: sandbox.runtime(), info, maxFrameBytes: 64 * 1024 });
  });
  afterEach(async () => {
    for (const socket of sockets) socket.terminate();
    await daemon.stop();
    sandbox.remove();
  });

  async function join(app: ClientApp) {
    const socket = await open(daemon.file.url, { authorization: `Bearer ${daemon.file.token}` });
    sockets.push(socket);
    const connection = app.connect(socketStream(socket));
    await connection.agent.request('initialize', { protocolVersion: 1, clientInfo: { name: 'test-client', version: '1.0.0' } });
    return { socket, connection };
  }

  it('writes serve.json (0600) with the URL, the http origin, a token and the pid', async () => {
    const file = readDaemonFile(sandbox.home)!;
    expect(file).toEqual({ url: daemon.file.url, http: daemon.file.http, token: daemon.file.token, pid: process.pid });
    expect(file.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/acp$/);
    const { statSync } = await import('node:fs');
    expect(statSync(`${sandbox.home}/serve.json`).mode & 0o777).toBe(0o600);
  });

  it('refuses a wrong token (401) and a foreign Origin (403) on the upgrade', async () => {
    await expect(open(daemon.file.url, { authorization: 'Bearer wrong' })).rejects.toThrow('HTTP 401');
    await expect(open(daemon.file.url, {})).rejects.toThrow('HTTP 401');
    await expect(open(daemon.file.url, { authorization: `Bearer ${daemon.file.token}`, origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    const own = await open(`${daemon.file.url}?token=${daemon.file.token}`, { origin: daemon.file.http.replace(/\/$/, '') });
    sockets.push(own);
    const response = await fetch(daemon.file.http);
    expect(response.status).toBe(401);
  });

  it('shows two clients the same session live; the second answers the confirmation and the first sees it withdrawn', async () => {
    sandbox.replies([{ text: 'Making it.', toolCalls: [{ name: 'shell', args: { command: 'touch made.txt' } }] }, { text: 'Made it.' }]);
    const a = recordingClient();
    const b = recordingClient();
    const questions: { callId: string; options: { optionId: string }[] }[] = [];
    b.app.onNotification('_nodwyn/confirmation/requested', { parse: (p: unknown) => p as (typeof questions)[number] }, ({ params }) => {
      questions.push(params);
    });
    const first = await join(a.app);
    const second = await join(b.app);
    const { sessionId } = await first.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    await second.connection.agent.request('_nodwyn/session/attach', { sessionId, fromSeq: 0 });
    const prompt = first.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'make made.txt' }] });
    await until(() => questions.length === 1 && a.asked.length === 1, 5000, 'the question on both clients');
    const answer = await second.connection.agent.request<{ accepted: boolean }>('_nodwyn/confirmation/answer', { sessionId, callId: questions[0]!.callId, optionId: 'allow_once' });
    expect(answer.accepted).toBe(true);
    expect((await prompt).stopReason).toBe('end_turn');
    const late = await first.connection.agent.request<{ accepted: boolean }>('_nodwyn/confirmation/answer', { sessionId, callId: questions[0]!.callId, optionId: 'reject_once' });
    expect(late.accepted).toBe(false);
    await until(() => kinds(b.updates).includes('tool_call_update') && text(b.updates).includes('Made it.'));
    expect(text(a.updates)).toBe('Making it.Made it.');
    expect(text(b.updates)).toBe('Making it.Made it.');
    const decided = (b.logs as { event: LogEvent }[]).map((l) => l.event).find((e) => e.type === 'confirmation.decided');
    expect(decided?.payload).toMatchObject({ granted: true });
    expect(String(decided?.payload.by)).toMatch(/^client-\d+:test-client$/);
  });

  it('goes on when the prompting client drops mid-turn: another answers, and the log is complete and verifies', async () => {
    sandbox.replies([{ toolCalls: [{ name: 'shell', args: { command: 'touch made.txt' } }] }, { text: 'Made it.' }]);
    const questions: { callId: string }[] = [];
    const watcher = recordingClient();
    watcher.app.onNotification('_nodwyn/confirmation/requested', { parse: (p: unknown) => p as { callId: string } }, ({ params }) => {
      questions.push(params);
    });
    const leaving = recordingClient();
    const first = await join(leaving.app);
    const second = await join(watcher.app);
    const { sessionId } = await first.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    await second.connection.agent.request('_nodwyn/session/attach', { sessionId, fromSeq: 0 });
    void first.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'make it' }] }).catch(() => undefined);
    await until(() => questions.length === 1 && leaving.asked.length === 1);
    first.socket.terminate();
    await until(() => daemon.sessions.live(sessionId)!.subscribers.size === 1);
    await second.connection.agent.request('_nodwyn/confirmation/answer', { sessionId, callId: questions[0]!.callId, optionId: 'allow_once' });
    await until(() => (watcher.logs as { event: LogEvent }[]).some((l) => l.event.type === 'turn.ended'));
    const ended = (watcher.logs as { event: LogEvent }[]).map((l) => l.event).find((e) => e.type === 'turn.ended');
    expect(ended?.payload.reason).toBe('answer');
    expect(daemon.sessions.live(sessionId)!.scope.kernel.log.verify(sessionId).ok).toBe(true);
  });

  it('lets a client that dropped reattach from its last seq and miss nothing, twice nothing', async () => {
    sandbox.replies([{ text: 'one' }]);
    const a = recordingClient();
    const first = await join(a.app);
    const { sessionId } = await first.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const b1 = recordingClient();
    const dropped = await join(b1.app);
    await dropped.connection.agent.request('_nodwyn/session/attach', { sessionId, fromSeq: 0 });
    await first.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'first' }] });
    await until(() => (b1.logs as { event: LogEvent }[]).some((l) => l.event.type === 'turn.ended'));
    const seen = Math.max(...seqs(b1.logs));
    dropped.socket.terminate();
    await first.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'second' }] });
    const b2 = recordingClient();
    const back = await join(b2.app);
    const { lastSeq } = await back.connection.agent.request<{ lastSeq: number }>('_nodwyn/session/attach', { sessionId, fromSeq: seen });
    const all = [...seqs(b1.logs).filter((s) => s <= seen), ...seqs(b2.logs)];
    expect(all).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
  });

  it('answers bad frames with their JSON-RPC errors, closes a frame over the limit, and keeps serving the others', async () => {
    sandbox.replies([{ text: 'still here' }]);
    const raw = await open(daemon.file.url, { authorization: `Bearer ${daemon.file.token}` });
    sockets.push(raw);
    const replies: { id: unknown; error?: { code: number; data?: { code?: string } } }[] = [];
    raw.on('message', (data) => replies.push(JSON.parse(String(data))));
    raw.send('{not json');
    raw.send('[1,2]');
    raw.send(Buffer.from([1, 2, 3]), { binary: true });
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } }));
    await until(() => replies.some((r) => r.id === 1));
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method', params: {} }));
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: '_nodwyn/session/attach', params: { fromSeq: -1 } }));
    await until(() => replies.length >= 6);
    expect(replies.filter((r) => r.id === null).map((r) => r.error?.code)).toEqual([-32700, -32600, -32700]);
    expect(replies.find((r) => r.id === 2)?.error?.code).toBe(-32601);
    expect(replies.find((r) => r.id === 3)?.error).toMatchObject({ code: -32602, data: { code: 'PARAMS_INVALID' } });
    const closed = new Promise<number>((resolve) => raw.once('close', (code) => resolve(code)));
    raw.send('x'.repeat(65 * 1024));
    expect(await closed).toBe(1009);
    const a = recordingClient();
    const other = await join(a.app);
    const { sessionId } = await other.connection.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    expect((await other.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).stopReason).toBe('end_turn');
    expect(daemon.sessions.live(sessionId)).toBeDefined();
  });
});

function kinds(updates: SessionNotification[]): string[] {
  return updates.map((u) => u.update.sessionUpdate);
}

function text(updates: SessionNotification[]): string {
  return updates
    .map((u) => u.update)
    .filter((u) => u.sessionUpdate === 'agent_message_chunk')
    .map((u) => ('content' in u && !Array.isArray(u.content) && u.content.type === 'text' ? u.content.text : ''))
    .join('');
}

function seqs(logs: unknown[]): number[] {
  return (logs as { event: LogEvent }[]).map((l) => l.event.seq);
}
