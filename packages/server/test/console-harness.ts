import { client, type ClientContext } from '@agentclientprotocol/sdk';
import type { PluginDefinition } from '@nodwyn/plugin-api';
import { WebSocket } from 'ws';
import { startDaemon, type Daemon } from '../src/index.js';
import { socketStream } from '../src/socket-stream.js';
import { Sandbox } from './harness.js';

/** A daemon over a sandbox (real plugins, a real log file) and an official ACP client on a real WebSocket. */
export interface ConsoleDaemon {
  readonly sandbox: Sandbox;
  readonly daemon: Daemon;
  readonly agent: ClientContext;
  close(): Promise<void>;
}

/** Starts the daemon on 127.0.0.1 (port 0), connects a client with the token, and initializes it. */
export async function consoleDaemon(extra: readonly PluginDefinition[] = []): Promise<ConsoleDaemon> {
  const sandbox = new Sandbox();
  const daemon = await startDaemon({ home: sandbox.home, port: 0, runtime: sandbox.runtime(extra), info: { name: 'nodwyn', version: '0.0.0-test' } });
  const socket = await new Promise<WebSocket>((resolve, reject) => {
    const opened = new WebSocket(daemon.file.url, { headers: { authorization: `Bearer ${daemon.file.token}` } });
    opened.once('open', () => resolve(opened));
    opened.once('error', reject);
  });
  const connection = client({ name: 'console-test' }).connect(socketStream(socket));
  await connection.agent.request('initialize', { protocolVersion: 1, clientInfo: { name: 'console-test', version: '1.0.0' } });
  return {
    sandbox,
    daemon,
    agent: connection.agent,
    async close() {
      socket.terminate();
      await daemon.stop();
      sandbox.remove();
    },
  };
}
