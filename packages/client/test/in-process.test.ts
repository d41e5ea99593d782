import { describe, expect, it } from 'vitest';
import { connectStream, linkedStreams, ProtocolError } from '../src/index.js';
import { TestAgent } from './fixtures/test-agent.js';
import { chunkText, clientInfo, logSeqs, recordEvents, waitFor } from './fixtures/wait.js';

describe('connectStream over linkedStreams', () => {
  it('runs a session in-process: initialize, a prompt with its updates and log events, and a permission answer', async () => {
    const agent = new TestAgent();
    const { client: clientEnd, server: serverEnd } = linkedStreams();
    const connection = agent.serve(serverEnd);
    const client = await connectStream(clientEnd, { clientInfo });
    client.onPermission(async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }));
    const events = recordEvents(client);

    const { sessionId } = await client.newSession('/work/project');
    const response = await client.prompt(sessionId, 'hi');

    expect(response.stopReason).toBe('end_turn');
    expect(chunkText(events)).toBe('Hello');
    expect(logSeqs(events)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(agent.permissionAnswers).toEqual([{ conn: 1, answer: { outcome: { outcome: 'selected', optionId: 'allow_once' } } }]);

    await client.close();
    await connection.closed;
    expect(connection.signal.aborted).toBe(true);
    expect(client.state).toBe('closed');
  });

  it('closes when the agent hangs up, failing the prompt in flight; it never reconnects', async () => {
    const agent = new TestAgent();
    const { client: clientEnd, server: serverEnd } = linkedStreams();
    const connection = agent.serve(serverEnd);
    const client = await connectStream(clientEnd, { clientInfo });
    const events = recordEvents(client);
    const { sessionId } = await client.newSession('/work/project');
    let reached!: () => void;
    const hold = new Promise<void>((resolve) => (reached = resolve));
    agent.beforeSecondChunk = () => {
      reached();
      return new Promise(() => undefined);
    };
    client.onPermission(async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }));

    const prompt = client.prompt(sessionId, 'hi').catch((error: unknown) => error);
    await hold;
    connection.close();
    const failure = (await prompt) as ProtocolError;
    await waitFor(() => client.state === 'closed', 'the client to close');

    expect(failure).toBeInstanceOf(ProtocolError);
    expect(failure.envelope).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'CLIENT_CONNECTION_LOST' });
    expect(events.filter((event) => event.type === 'connection').map((event) => event.type === 'connection' && event.state)).toEqual(['closed']);
    expect(((await client.listSessions().catch((error: unknown) => error)) as ProtocolError).envelope?.code).toBe('CLIENT_CLOSED');
  });
});
