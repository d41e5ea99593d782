import type { Stream } from '@agentclientprotocol/sdk';
import { connectFailure, openWebSocket } from './open-web-socket.js';
import type { ProtocolError } from './protocol-error.js';
import type { WebSocketLike } from './web-socket-like.js';
import { webSocketStream } from './web-socket-stream.js';

/**
 * Creates a socket to `url`, waits for it to open and wraps it as an ACP Stream: what a WebSocket
 * dialer does on every (re)connect. Any failure, even the constructor's, rejects with the client's
 * envelope.
 */
export async function dialWebSocket(create: () => WebSocketLike, url: string, onInvalidFrame: (error: ProtocolError) => void): Promise<Stream> {
  let socket: WebSocketLike;
  try {
    socket = create();
  } catch (error) {
    throw connectFailure(url, { type: 'error', message: error instanceof Error ? error.message : String(error) }, undefined);
  }
  // The stream listens before the socket opens, so not even a frame sent with the upgrade is missed.
  const stream = webSocketStream(socket, { onInvalidFrame });
  await openWebSocket(socket, url);
  return stream;
}
