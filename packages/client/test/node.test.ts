import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProtocolError, type NodwynClient } from '../src/index.js';
import { connectDaemon, connectNode, defaultNodwynHome, readServeInfo, type ServeInfo } from '../src/node.js';
import { startAgentServer, type AgentServer } from './fixtures/agent-server.js';
import { clientInfo, waitFor } from './fixtures/wait.js';

let home: string;
const servers: AgentServer[] = [];
const clients: NodwynClient[] = [];

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'nodwyn-client-'));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  rmSync(home, { recursive: true, force: true });
});

async function serve(agent?: AgentServer['agent']): Promise<AgentServer> {
  const server = await startAgentServer(agent);
  servers.push(server);
  return server;
}

function writeServeInfo(server: AgentServer): ServeInfo {
  const info = { url: server.url, http: server.url.replace(/^ws/, 'http').replace(/acp$/, ''), token: server.token, pid: process.pid };
  writeFileSync(join(home, 'serve.json'), JSON.stringify(info), { mode: 0o600 });
  return info;
}

describe('connectNode', () => {
  it('sends the token as an Authorization header, never in the URL', async () => {
    const server = await serve();
    const client = await connectNode({ url: server.url, token: server.token, clientInfo });
    clients.push(client);

    expect(await client.listSessions()).toEqual([]);
    expect(server.upgrades).toEqual([{ url: '/acp', authorization: `Bearer ${server.token}` }]);
  });

  it('rejects a wrong token with an AUTH_FAILED ProtocolError', async () => {
    const server = await serve();

    const failure = (await connectNode({ url: server.url, token: 'nope', clientInfo }).catch((error: unknown) => error)) as ProtocolError;

    expect(failure).toBeInstanceOf(ProtocolError);
    expect(failure.envelope).toMatchObject({ category: 'AUTH_FAILED', code: 'CLIENT_AUTH_REJECTED', http_status: 401 });
  });
});

describe('readServeInfo', () => {
  it('reads what the daemon wrote', async () => {
    const info = writeServeInfo(await serve());

    expect(await readServeInfo(home)).toEqual(info);
  });

  it('says no daemon runs when serve.json is missing, and names a malformed one', async () => {
    const missing = (await readServeInfo(home).catch((error: unknown) => error)) as ProtocolError;
    writeFileSync(join(home, 'serve.json'), JSON.stringify({ url: 'ws://127.0.0.1:1/acp', token: 't', pid: 1 }));
    const malformed = (await readServeInfo(home).catch((error: unknown) => error)) as ProtocolError;

    expect(missing.envelope).toMatchObject({ category: 'NOT_FOUND', code: 'CLIENT_SERVE_INFO_MISSING' });
    expect(missing.message).toContain('nodwyn serve');
    expect(malformed.envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'CLIENT_SERVE_INFO_INVALID' });
    expect(malformed.message).toContain('its http is not a non-empty string');
  });
});

describe('connectDaemon', () => {
  it('finds the daemon through $NODWYN_HOME by default', async () => {
    const server = await serve();
    writeServeInfo(server);
    const saved = process.env.NODWYN_HOME;
    process.env.NODWYN_HOME = home;
    try {
      const client = await connectDaemon({ clientInfo });
      clients.push(client);
      expect(defaultNodwynHome()).toBe(home);
      expect((await client.newSession('/work/project')).sessionId).toBe('s-1');
    } finally {
      if (saved === undefined) delete process.env.NODWYN_HOME;
      else process.env.NODWYN_HOME = saved;
    }
  });

  it('reads serve.json again when it reconnects, so it follows a daemon that restarted elsewhere', async () => {
    const first = await serve();
    writeServeInfo(first);
    const client = await connectDaemon({ clientInfo, home, reconnect: { baseMs: 5, capMs: 20 } });
    clients.push(client);
    const { sessionId } = await client.newSession('/work/project');

    const second = await serve(first.agent);
    writeServeInfo(second);
    await first.close();
    await waitFor(() => second.sockets.size === 1 && client.state === 'open', 'the client on the new daemon');

    expect(second.agent.requests.at(-1)).toMatchObject({ method: '_nodwyn/session/attach', params: { sessionId, fromSeq: 1 } });
    expect((await client.listSessions()).map((session) => session.sessionId)).toEqual([sessionId]);
  });
});

describe('defaultNodwynHome', () => {
  it('falls back to the XDG data dir, as the daemon does', () => {
    expect(defaultNodwynHome({ XDG_DATA_HOME: '/data' })).toBe('/data/nodwyn');
  });
});
