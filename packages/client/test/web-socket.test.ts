import type { ClientEvent } from '@nodwyn/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CLIENT_ERROR_CODE, connectWebSocket, ProtocolError, type ClientOptions, type NodwynClient } from '../src/index.js';
import { startAgentServer, type AgentServer } from './fixtures/agent-server.js';
import { chunkText, clientInfo, logSeqs, recordEvents, waitFor } from './fixtures/wait.js';

let server: AgentServer;
const clients: NodwynClient[] = [];

beforeEach(async () => {
  server = await startAgentServer();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.close();
});

async function connect(options: Partial<ClientOptions> = {}): Promise<NodwynClient> {
  const client = await connectWebSocket({ url: server.url, token: server.token, WebSocket, clientInfo, ...options });
  clients.push(client);
  return client;
}

const allowOnce = async () => ({ outcome: { outcome: 'selected' as const, optionId: 'allow_once' } });

/** Each event in a short form: `log:3`, `update:Hel`, `confirmation:shell`. */
function shape(events: readonly ClientEvent[]): string[] {
  return events.map((event) => {
    if (event.type === 'log') return `log:${event.event.seq}`;
    if (event.type === 'update') return `update:${chunkText([event])}`;
    if (event.type === 'confirmation') return `confirmation:${event.request.tool}`;
    return `connection:${event.state}`;
  });
}

describe('connectWebSocket', () => {
  it('initializes with the token as a query parameter, and streams a prompt’s updates and log events in order before the prompt resolves', async () => {
    const client = await connect();
    client.onPermission(allowOnce);
    const events = recordEvents(client);

    const { sessionId } = await client.newSession('/work/project');
    const response = await client.prompt(sessionId, 'hi');

    expect(response.stopReason).toBe('end_turn');
    expect(shape(events)).toEqual(['log:1', 'log:2', 'update:Hel', 'log:3', 'confirmation:shell', 'log:4', 'update:lo', 'log:5', 'log:6']);
    expect(client.lastSeq(sessionId)).toBe(6);
    expect(server.upgrades[0]?.url).toBe(`/acp?token=${server.token}`);
    expect(server.agent.inits[0]).toMatchObject({ clientInfo, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } } });
    expect(client.agent.agentInfo?.name).toBe('test-agent');
    expect(client.state).toBe('open');
  });

  it('answers session/request_permission with the handler’s choice', async () => {
    const client = await connect();
    const asked: string[] = [];
    client.onPermission(async (request) => {
      asked.push(`${request.toolCall.title}: ${request.options.map((option) => option.optionId).join(',')}`);
      return { outcome: { outcome: 'selected', optionId: 'reject_once' } };
    });
    const { sessionId } = await client.newSession('/work/project');

    await client.prompt(sessionId, 'hi');

    expect(asked).toEqual(['shell: ls: allow_once,reject_once']);
    expect(server.agent.permissionAnswers).toEqual([{ conn: 1, answer: { outcome: { outcome: 'selected', optionId: 'reject_once' } } }]);
    const decided = server.agent.sessions.get(sessionId)?.events.find((event) => event.type === 'confirmation.decided');
    expect(decided?.payload).toMatchObject({ option_id: 'reject_once', by: 1 });
  });

  it('aborts the handler’s signal and answers `cancelled` when another client answers first and the agent withdraws the question', async () => {
    const prompter = await connect();
    const other = await connect();
    let withdrawn = false;
    prompter.onPermission(
      (_request, signal) =>
        new Promise(() => {
          signal.addEventListener('abort', () => (withdrawn = true));
        }),
    );
    const { sessionId } = await prompter.newSession('/work/project');
    await other.attach(sessionId);
    const answers: Array<Promise<{ accepted: boolean }>> = [];
    other.onEvent((event) => {
      if (event.type === 'confirmation') answers.push(other.answerConfirmation(sessionId, event.request.callId, 'allow_once'));
    });

    const response = await prompter.prompt(sessionId, 'hi');

    expect(response.stopReason).toBe('end_turn');
    expect(await Promise.all(answers)).toEqual([{ accepted: true }]);
    await waitFor(() => server.agent.permissionAnswers.length === 1, 'the prompter’s answer');
    expect(withdrawn).toBe(true);
    expect(server.agent.permissionAnswers[0]).toEqual({ conn: 1, answer: { outcome: { outcome: 'cancelled' } } });
  });

  it('without a permission handler refuses the question with an error, leaving it to the other clients', async () => {
    const client = await connect();
    const { sessionId } = await client.newSession('/work/project');
    const answers: Array<Promise<{ accepted: boolean }>> = [];
    client.onEvent((event) => {
      if (event.type === 'confirmation') answers.push(client.answerConfirmation(sessionId, event.request.callId, 'allow_once'));
    });

    expect((await client.prompt(sessionId, 'hi')).stopReason).toBe('end_turn');
    expect(await Promise.all(answers)).toEqual([{ accepted: true }]);

    const refusal = server.agent.permissionAnswers[0];
    expect(refusal?.error?.code).toBe(CLIENT_ERROR_CODE);
    expect(refusal?.error?.data).toMatchObject({ status: 'error', category: 'PRECONDITION_FAILED', code: 'CLIENT_PERMISSION_UNHANDLED', plugin: '@nodwyn/client' });
  });

  it('rejects a wrong token with an AUTH_FAILED ProtocolError that does not show the token', async () => {
    const failure = await connectWebSocket({ url: server.url, token: 'wrong-token', WebSocket, clientInfo }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ProtocolError);
    const error = failure as ProtocolError;
    expect(error.message).toMatch(/refused the token \(HTTP 401\)/);
    expect(error.envelope).toMatchObject({ category: 'AUTH_FAILED', code: 'CLIENT_AUTH_REJECTED', http_status: 401 });
    expect(JSON.stringify(error.envelope)).not.toContain('wrong-token');
    expect(server.upgrades).toHaveLength(1);
  });

  it('sends no token at all when none is given (the web console, which the cookie authenticates)', async () => {
    const failure = await connectWebSocket({ url: server.url, WebSocket, clientInfo, reconnect: false }).catch((error: unknown) => error);

    expect((failure as ProtocolError).envelope).toMatchObject({ category: 'AUTH_FAILED', http_status: 401 });
    expect(server.upgrades).toHaveLength(1);
    expect(server.upgrades[0]!.url).toBe('/acp');
    expect(server.upgrades[0]!.authorization).toBeUndefined();
  });

  it('rejects with CLIENT_CONNECT_FAILED when nothing listens', async () => {
    const url = server.url;
    await server.close();
    server = await startAgentServer();

    const failure = await connectWebSocket({ url, token: 't', WebSocket, clientInfo }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).envelope).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'CLIENT_CONNECT_FAILED' });
    expect((failure as ProtocolError).message).toContain('nodwyn serve');
  });

  it('rejects params the agent refuses with a ProtocolError carrying its envelope, and keeps other error data as data', async () => {
    const client = await connect();

    const refused = (await client.newSession('relative/path').catch((error: unknown) => error)) as ProtocolError;
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused.code).toBe(-32602);
    expect(refused.envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'SESSION_CWD_RELATIVE', failed_parameter: '$.cwd' });
    expect(refused.message).toContain('absolute path');

    const unknown = (await client.prompt('s-404', 'hi').catch((error: unknown) => error)) as ProtocolError;
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect(unknown.code).toBe(-32002);
    expect(unknown.envelope).toBeUndefined();
    expect(unknown.data).toEqual({ sessionId: 's-404' });
  });

  it('refuses params that fail the protocol’s schema before sending anything', async () => {
    const client = await connect();
    const { sessionId } = await client.newSession('/work/project');

    const refused = (await client.attach(sessionId, -1).catch((error: unknown) => error)) as ProtocolError;

    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused.code).toBe(-32602);
    expect(refused.envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'CLIENT_PARAMS_INVALID', failed_parameter: '$.fromSeq' });
    expect(server.agent.requests.filter((request) => request.method === '_nodwyn/session/attach')).toEqual([]);
  });

  it('drops a frame that is not a JSON-RPC message, and a malformed log notification, reporting each as a connection event', async () => {
    const client = await connect();
    const events = recordEvents(client);
    const { sessionId } = await client.newSession('/work/project');

    for (const ws of server.sockets) {
      ws.send('{not json');
      ws.send('[1, 2]');
      ws.send(Buffer.from([1, 2, 3]), { binary: true });
      ws.send(JSON.stringify({ jsonrpc: '2.0', method: '_nodwyn/log', params: { sessionId, event: { seq: 99 } } }));
    }
    await waitFor(() => events.length >= 4, 'four reports');

    const reports = events.filter((event) => event.type === 'connection');
    expect(reports.map((event) => event.type === 'connection' && event.state)).toEqual(['open', 'open', 'open', 'open']);
    expect(reports.map((event) => (event.type === 'connection' ? event.error : ''))).toEqual([
      expect.stringMatching(/CLIENT_FRAME_INVALID: The agent sent text that is not JSON/),
      expect.stringMatching(/JSON that is not a message object/),
      expect.stringMatching(/a binary frame/),
      expect.stringMatching(/_nodwyn\/log notification that does not match/),
    ]);
    expect(client.lastSeq(sessionId)).toBe(1);
    expect((await client.listSessions()).map((session) => session.sessionId)).toEqual([sessionId]);
  });

  it('lists sessions and detaches from one', async () => {
    const client = await connect();
    const { sessionId } = await client.newSession('/work/project');

    expect(await client.listSessions({ workspace: '/work/project' })).toEqual([
      { sessionId, workspace: '/work/project', state: 'idle', lastActivity: expect.any(String), events: 1 },
    ]);
    await client.detach(sessionId);

    expect(server.agent.requests.at(-1)).toEqual({ conn: 1, method: '_nodwyn/session/detach', params: { sessionId } });
    expect(server.agent.sessions.get(sessionId)?.conns.size).toBe(0);
  });

  it('declares the fs capabilities and answers the agent’s file reads when given fs handlers', async () => {
    const reads: string[] = [];
    const client = await connect({
      fs: {
        readTextFile: async (request) => {
          reads.push(request.path);
          return { content: '(unsaved notes)' };
        },
        writeTextFile: async () => undefined,
      },
    });
    client.onPermission(allowOnce);
    const events = recordEvents(client);
    const { sessionId } = await client.newSession('/work/project');

    await client.prompt(sessionId, 'read the notes');

    expect(server.agent.inits[0]?.clientCapabilities?.fs).toEqual({ readTextFile: true, writeTextFile: true });
    expect(reads).toEqual(['/notes.txt']);
    expect(chunkText(events)).toBe('Hel(unsaved notes)lo');
    expect(logSeqs(events)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
