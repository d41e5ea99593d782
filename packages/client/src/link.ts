import { RequestError, type AnyMessage, type ClientApp, type ClientConnection, type InitializeRequest, type InitializeResponse, type Stream } from '@agentclientprotocol/sdk';
import type { EventFeed } from './event-feed.js';
import { clientError, fromRequestError } from './protocol-error.js';

/** One initialized ACP connection over one transport. A reconnect makes a new one. */
export interface Link {
  readonly connection: ClientConnection;
  readonly stream: Stream;
  /** What the agent answered to `initialize` on this connection. */
  readonly agent: InitializeResponse;
}

/**
 * Connects `app` over `stream` and runs `initialize`. Every incoming message passes `feed` first, which
 * keeps the notifications that become events; the rest go on to the SDK.
 */
export async function openLink(app: ClientApp, stream: Stream, feed: EventFeed, initialize: InitializeRequest): Promise<Link> {
  const tap = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      if (!feed.take(message)) controller.enqueue(message);
    },
  });
  const connection = app.connect({ readable: stream.readable.pipeThrough(tap), writable: stream.writable });
  try {
    const agent = await connection.agent.request('initialize', initialize);
    return { connection, stream, agent };
  } catch (error) {
    endLink({ connection, stream });
    if (error instanceof RequestError) throw fromRequestError(error);
    throw clientError(
      'CLIENT_CONNECTION_LOST',
      {
        operation: 'initialize',
        remediation: `The connection closed before the agent answered initialize (${error instanceof Error ? error.message : String(error)}); check that the agent runs, then connect again.`,
      },
      error,
    );
  }
}

/** Closes a link's connection and its transport. */
export function endLink(link: Pick<Link, 'connection' | 'stream'>): void {
  link.connection.close();
  // Closing the connection cancels its reader, which closes a WebSocket; closing the writable as well
  // tells an in-memory peer that this side is gone. A writable a pending write still holds, or one that
  // already failed, has nothing left to tell.
  if (!link.stream.writable.locked) {
    link.stream.writable.close().catch(() => undefined);
  }
}
