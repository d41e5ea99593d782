import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import type { WebSocket } from 'ws';
import { serverErrors } from './errors.js';

/** Above this many bytes queued on the socket, writes wait for it to drain (a slow client slows its own stream only). */
const HIGH_WATER = 4 * 1024 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An ACP stream over one WebSocket: one JSON-RPC message per text frame. A frame that is not one JSON
 * object (bad JSON, a binary frame, a batch) is answered with its JSON-RPC error, the envelope in `data`,
 * and the connection goes on. The socket closing ends the stream.
 */
export function socketStream(socket: WebSocket): Stream {
  const send = (message: unknown): Promise<void> =>
    new Promise((resolve, reject) => {
      if (socket.readyState !== socket.OPEN) return reject(new Error('the socket is closed'));
      socket.send(JSON.stringify(message), (error) => (error ? reject(error) : resolve()));
    });
  const refuse = (code: number, message: string, remediation: string): void => {
    const data = serverErrors.envelope('FRAME_INVALID', { operation: 'websocket', remediation });
    void send({ jsonrpc: '2.0', id: null, error: { code, message, data } }).catch(() => undefined);
  };
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      socket.on('message', (data, isBinary) => {
        if (isBinary) return refuse(-32700, 'Parse error', 'Send each JSON-RPC message as one text frame, not a binary one.');
        let message: unknown;
        try {
          message = JSON.parse(data.toString());
        } catch {
          return refuse(-32700, 'Parse error', 'The frame is not JSON; send one JSON-RPC message per text frame.');
        }
        if (!isRecord(message)) return refuse(-32600, 'Invalid request', 'Send one JSON-RPC request object per frame; batches are not supported.');
        controller.enqueue(message as AnyMessage);
      });
      socket.on('close', () => {
        try {
          controller.close();
        } catch {
          // Already closed by cancel.
        }
      });
    },
    cancel() {
      socket.close();
    },
  });
  const writable = new WritableStream<AnyMessage>({
    async write(message) {
      const sent = send(message);
      // Most writes are not awaited, so a fast producer is not slowed by each frame's round trip; past the
      // high-water mark it waits for the socket to catch up.
      if (socket.bufferedAmount > HIGH_WATER) await sent;
      else sent.catch(() => undefined);
    },
    close() {
      socket.close();
    },
  });
  return { readable, writable };
}
