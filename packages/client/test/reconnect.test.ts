import type { ClientEvent } from '@nodwyn/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { connectWebSocket, ProtocolError, type NodwynClient, type ReconnectOptions } from '../src/index.js';
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

async function connect(reconnect: ReconnectOptions = { baseMs: 5, capMs: 20 }): Promise<NodwynClient> {
  const client = await connectWebSocket({ url: server.url, token: server.token, WebSocket, clientInfo, reconnect });
  client.onPermission(async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }));
  clients.push(client);
  return client;
}

function connectionEvents(events: readonly ClientEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'connection' ? [`${event.state}${event.attempt === undefined ? '' : `#${event.attempt}`}`] : []));
}

/** Holds the agent's turn between its two chunks until `release` is called. */
function holdTurn(server: AgentServer): { reached: Promise<void>; release: () => void } {
  let reached!: () => void;
  let release!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  server.agent.beforeSecondChunk = async () => {
    reached();
    await released;
  };
  return { reached: reachedPromise, release };
}

describe('reconnect', () => {
  it('after the server drops the socket mid-turn, rejects the prompt, reconnects and resumes from the last seq with no gap and no duplicate', async () => {
    const client = await connect();
    const events = recordEvents(client);
    const { sessionId } = await client.newSession('/work/project');
    const turn = holdTurn(server);

    const prompt = client.prompt(sessionId, 'hi').catch((error: unknown) => error);
    await turn.reached;
    await waitFor(() => client.lastSeq(sessionId) === 4, 'the events before the hold');
    server.terminateAll();
    const failure = (await prompt) as ProtocolError;
    // The turn goes on in the daemon while the client is away.
    turn.release();
    await waitFor(() => client.state === 'open' && client.lastSeq(sessionId) === 6, 'the resumed events');

    expect(failure).toBeInstanceOf(ProtocolError);
    expect(failure.envelope).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'CLIENT_PROMPT_DETACHED', retryable: 'never' });
    expect(failure.message).toMatch(/The turn goes on in the daemon/);
    expect(logSeqs(events)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(connectionEvents(events)).toEqual(['reconnecting#1', 'open#1']);
    expect(server.agent.requests.filter((request) => request.method === '_nodwyn/session/attach')).toEqual([
      { conn: 2, method: '_nodwyn/session/attach', params: { sessionId, fromSeq: 4 } },
    ]);
    expect(server.agent.inits).toHaveLength(2);
    // The second chunk was streamed while the client was away; the log events carry the answer.
    expect(chunkText(events)).toBe('Hel');
    expect(events.find((event) => event.type === 'log' && event.event.type === 'message.assistant')).toBeDefined();
  });

  it('drops the events of a replay that overlaps what the client already saw', async () => {
    const client = await connect();
    const { sessionId } = await client.newSession('/work/project');
    await client.prompt(sessionId, 'hi');
    const events = recordEvents(client);

    const { lastSeq } = await client.attach(sessionId, 0);

    expect(lastSeq).toBe(6);
    expect(events).toEqual([]);
    expect(client.lastSeq(sessionId)).toBe(6);
  });

  it('keeps a request made while reconnecting until the new connection is open', async () => {
    const client = await connect();
    const { sessionId } = await client.newSession('/work/project');
    const events = recordEvents(client);

    server.terminateAll();
    await waitFor(() => client.state === 'reconnecting', 'the drop');
    const sessions = await client.listSessions();

    expect(sessions.map((session) => session.sessionId)).toEqual([sessionId]);
    expect(connectionEvents(events)).toEqual(['reconnecting#1', 'open#1']);
  });

  it('closes with the last error when every attempt fails, and then rejects requests with CLIENT_CLOSED', async () => {
    const client = await connect({ maxAttempts: 2, baseMs: 5, capMs: 10 });
    const events = recordEvents(client);

    await server.close();
    await waitFor(() => client.state === 'closed', 'the client to give up');
    const failure = (await client.listSessions().catch((error: unknown) => error)) as ProtocolError;

    expect(connectionEvents(events)).toEqual(['reconnecting#1', 'reconnecting#2', 'closed']);
    const closed = events.at(-1);
    expect(closed?.type === 'connection' && closed.error).toMatch(/2 attempts to reconnect failed \(last: .*Could not open a WebSocket/);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect(failure.envelope?.code).toBe('CLIENT_CLOSED');
  });

  it('stops reconnecting once closed', async () => {
    const client = await connect({ baseMs: 50, capMs: 50 });
    const events = recordEvents(client);
    let closing: Promise<void> | undefined;
    client.onEvent((event) => {
      if (event.type === 'connection' && event.state === 'reconnecting') closing = client.close();
    });

    server.terminateAll();
    await waitFor(() => closing !== undefined, 'the drop');
    await closing;
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(connectionEvents(events)).toEqual(['reconnecting#1', 'closed']);
    expect(server.upgrades).toHaveLength(1);
  });

  it('re-attaches a session the client attached to, not only the ones it created', async () => {
    const creator = await connect();
    const { sessionId } = await creator.newSession('/work/project');
    const watcher = await connect();
    const seen = recordEvents(watcher);
    const creatorEvents = recordEvents(creator);
    await watcher.attach(sessionId);

    server.terminateAll();
    const reopened = (events: readonly ClientEvent[]) => connectionEvents(events).includes('open#1');
    await waitFor(() => reopened(seen) && reopened(creatorEvents), 'both clients back');
    await creator.prompt(sessionId, 'hi');
    await waitFor(() => watcher.lastSeq(sessionId) === 6, 'the watcher to see the turn');

    expect(logSeqs(seen)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(chunkText(seen)).toBe('Hello');
  });
});
