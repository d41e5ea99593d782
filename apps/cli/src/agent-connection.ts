import { connectStream, linkedStreams, ProtocolError, type NodwynClient } from '@nodwyn/client';
import { connectDaemon } from '@nodwyn/client/node';
import { EnvelopeError } from '@nodwyn/plugin-api';
import { agentApp, alive, readDaemonFile, SessionManager, type AgentRuntime, type DaemonFile } from '@nodwyn/server';
import { CliCodes } from './errors.js';
import { VERSION } from './version.js';

/** A connected protocol client and how to let go of it. */
export interface AgentConnection {
  readonly client: NodwynClient;
  /** Whether the agent is the daemon (`nodwyn serve`) rather than this process. */
  readonly attached: boolean;
  /** Closes the client; in-process, also ends the agent's running turns as cancelled. */
  close(): Promise<void>;
}

/** Who the client says it is in `initialize`. */
export interface ClientName {
  readonly name: string;
}

/** The daemon of `home` when one runs there: its serve.json names a live process. */
export function runningDaemon(home: string): DaemonFile | undefined {
  const file = readDaemonFile(home);
  return file && alive(file.pid) ? file : undefined;
}

/**
 * A client of an agent served in this process, over `runtime`: a session manager, an ACP agent on one end
 * of an in-memory stream pair and the client on the other, as `nodwyn acp` serves an editor over stdio.
 * `close()` closes the client, then shuts the session manager down (a running turn ends cancelled,
 * logged); the runtime stays open for its owner.
 */
export async function inProcessConnection(runtime: AgentRuntime, who: ClientName): Promise<AgentConnection> {
  const sessions = new SessionManager(runtime);
  const { client: clientEnd, server: serverEnd } = linkedStreams();
  const served = agentApp(sessions, { name: 'nodwyn', version: VERSION }, () => undefined).connect(serverEnd);
  let client: NodwynClient;
  try {
    client = await viaProtocol(() => connectStream(clientEnd, { clientInfo: { name: who.name, version: VERSION } }));
  } catch (error) {
    await sessions.shutdown();
    throw error;
  }
  return {
    client,
    attached: false,
    async close() {
      await client.close();
      await served.closed;
      await sessions.shutdown();
    },
  };
}

/** A client of the daemon of `home`, over its WebSocket (reconnecting, resuming from the last seq). */
export async function daemonConnection(home: string, who: ClientName): Promise<AgentConnection> {
  const client = await viaProtocol(() => connectDaemon({ home, clientInfo: { name: who.name, version: VERSION } }));
  return { client, attached: true, close: () => client.close() };
}

/**
 * Runs a client request; what the agent refused becomes an envelope error, so the command prints it as
 * any other failure: the agent's own envelope when it sent one, else one naming the JSON-RPC error.
 */
export async function viaProtocol<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    if (error.envelope) throw new EnvelopeError(error.envelope, { cause: error });
    const unknownMethod = error.code === -32601;
    throw new EnvelopeError(
      {
        category: 'UNEXPECTED_RESPONSE',
        code: CliCodes.AGENT_REQUEST_FAILED,
        received_value: `JSON-RPC ${error.code}: ${error.message}`,
        remediation: unknownMethod
          ? 'The agent does not serve this request (method not found): it is older than this command. If a daemon runs (nodwyn serve), restart it with the nodwyn you are running now.'
          : `The agent refused the request (JSON-RPC ${error.code}: ${error.message}).`,
      },
      { cause: error },
    );
  }
}
