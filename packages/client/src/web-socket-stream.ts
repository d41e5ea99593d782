import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { describeReceived } from './errors.js';
import { openWebSocket } from './open-web-socket.js';
import { clientError, ProtocolError } from './protocol-error.js';
import { closeSocket, SOCKET_CLOSED, SOCKET_CONNECTING, SOCKET_OPEN, type WebSocketEventLike, type WebSocketLike } from './web-socket-like.js';

/** What `webSocketStream` reports besides the messages. */
export interface WebSocketStreamOptions {
  /** Called with each frame that was dropped because it is not a JSON-RPC message object. */
  readonly onInvalidFrame?: (error: ProtocolError) => void;
}

/**
 * An ACP Stream over a WebSocket, one JSON-RPC message per text frame (the daemon's framing). A frame
 * that is not a JSON object is dropped and reported to `onInvalidFrame`, never thrown: one bad frame
 * must not end a connection other sessions share. The socket's close ends the readable side; cancelling
 * the readable or closing the writable closes the socket. Writes wait for a connecting socket to open.
 */
export function webSocketStream(socket: WebSocketLike, options: WebSocketStreamOptions = {}): Stream {
  let controller: ReadableStreamDefaultController<AnyMessage> | undefined;
  let ended = false;
  const onMessage = (event: WebSocketEventLike) => {
    if (ended) return;
    const message = parseFrame(event.data);
    if (message instanceof ProtocolError) options.onInvalidFrame?.(message);
    else controller?.enqueue(message);
  };
  const detach = () => {
    ended = true;
    socket.removeEventListener('message', onMessage);
    socket.removeEventListener('close', onClose);
  };
  const onClose = () => {
    if (ended) return;
    detach();
    controller?.close();
  };
  socket.addEventListener('message', onMessage);
  socket.addEventListener('close', onClose);
  // `ws` throws an 'error' nobody listens to; the close that follows every error is what ends the stream.
  socket.addEventListener('error', () => undefined);

  const readable = new ReadableStream<AnyMessage>({
    start(c) {
      controller = c;
      if (socket.readyState === SOCKET_CLOSED) onClose();
    },
    cancel() {
      detach();
      closeSocket(socket);
    },
  });
  const writable = new WritableStream<AnyMessage>({
    async write(message) {
      if (socket.readyState === SOCKET_CONNECTING) await openWebSocket(socket);
      if (socket.readyState !== SOCKET_OPEN) {
        throw clientError('CLIENT_CONNECTION_LOST', {
          operation: 'websocket.send',
          remediation: 'The WebSocket closed before the message could be sent; the client reconnects by itself.',
        });
      }
      socket.send(JSON.stringify(message));
    },
    close() {
      closeSocket(socket);
    },
    abort() {
      closeSocket(socket);
    },
  });
  return { readable, writable };
}

/** The JSON-RPC message object a frame holds, or why it holds none. */
function parseFrame(data: unknown): AnyMessage | ProtocolError {
  if (typeof data !== 'string') return invalidFrame('a binary frame', '[binary frame]');
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    return invalidFrame(`text that is not JSON (${error instanceof Error ? error.message : String(error)})`, data);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalidFrame('JSON that is not a message object', data);
  }
  return value as AnyMessage;
}

function invalidFrame(what: string, received: string): ProtocolError {
  return clientError('CLIENT_FRAME_INVALID', {
    operation: 'websocket.receive',
    received_value: describeReceived(received),
    expected: 'one JSON-RPC message object per text frame',
    remediation: `The agent sent ${what}; the frame was dropped and the connection goes on. If it keeps happening, the daemon and this client speak different protocol versions.`,
  });
}
