import { ndJsonStream } from '@agentclientprotocol/sdk';
import { Readable, Writable } from 'node:stream';
import { agentApp, type AgentInfo } from './agent-app.js';
import type { SessionManager } from './session-manager.js';
import { DEFAULT_MAX_FRAME_BYTES } from './websocket-server.js';

/**
 * Serves the protocol to one client over a pair of byte streams as newline-delimited JSON (`nodwyn acp`:
 * an editor runs nodwyn as a child process and talks over its stdin and stdout). Resolves when the
 * client closes its end.
 */
export function serveStdio(sessions: SessionManager, info: AgentInfo, input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<void> {
  const stream = ndJsonStream(Writable.toWeb(output as Writable) as WritableStream<Uint8Array>, Readable.toWeb(input as Readable) as ReadableStream<Uint8Array>, {
    maxMessageBytes: DEFAULT_MAX_FRAME_BYTES,
  });
  return agentApp(sessions, info, () => undefined).connect(stream).closed;
}
