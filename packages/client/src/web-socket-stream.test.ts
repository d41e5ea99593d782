import type { AnyMessage } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import type { ProtocolError } from './protocol-error.js';
import type { WebSocketEventLike, WebSocketEventType, WebSocketLike } from './web-socket-like.js';
import { webSocketStream } from './web-socket-stream.js';

/** A socket driven by the test: `receive` plays a frame from the agent, `sent` holds what was sent. */
class ScriptedSocket implements WebSocketLike {
  readyState = 1;
  readonly sent: string[] = [];
  private readonly target = new EventTarget();

  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.fire('close', { code: 1000 });
  }
  addEventListener(type: WebSocketEventType, listener: (event: WebSocketEventLike) => void): void {
    this.target.addEventListener(type, listener as unknown as (event: Event) => void);
  }
  removeEventListener(type: WebSocketEventType, listener: (event: WebSocketEventLike) => void): void {
    this.target.removeEventListener(type, listener as unknown as (event: Event) => void);
  }
  receive(data: unknown): void {
    this.fire('message', { data });
  }
  private fire(type: WebSocketEventType, fields: object): void {
    this.target.dispatchEvent(Object.assign(new Event(type), fields));
  }
}

const ping: AnyMessage = { jsonrpc: '2.0', method: 'ping' };

describe('webSocketStream', () => {
  it('reads one message per text frame and sends one frame per message', async () => {
    const socket = new ScriptedSocket();
    const stream = webSocketStream(socket);
    const reader = stream.readable.getReader();
    const writer = stream.writable.getWriter();

    socket.receive(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }));
    await writer.write(ping);

    expect(await reader.read()).toEqual({ done: false, value: { jsonrpc: '2.0', id: 1, result: {} } });
    expect(socket.sent).toEqual([JSON.stringify(ping)]);
  });

  it('drops a frame that is not a message object, reports it, and reads on', async () => {
    const socket = new ScriptedSocket();
    const dropped: ProtocolError[] = [];
    const reader = webSocketStream(socket, { onInvalidFrame: (error) => dropped.push(error) }).readable.getReader();

    socket.receive('{"jsonrpc": ');
    socket.receive('42');
    socket.receive(JSON.stringify(ping));

    expect(await reader.read()).toEqual({ done: false, value: ping });
    expect(dropped.map((error) => error.envelope?.code)).toEqual(['CLIENT_FRAME_INVALID', 'CLIENT_FRAME_INVALID']);
    expect(dropped[0]?.envelope?.received_value).toBe('{"jsonrpc": ');
  });

  it('ends the readable when the socket closes, and fails a later write instead of hanging', async () => {
    const socket = new ScriptedSocket();
    const stream = webSocketStream(socket);
    const reader = stream.readable.getReader();

    socket.close();

    expect(await reader.read()).toEqual({ done: true, value: undefined });
    await expect(stream.writable.getWriter().write(ping)).rejects.toMatchObject({ envelope: { code: 'CLIENT_CONNECTION_LOST' } });
  });

  it('closes the socket when the readable is cancelled', async () => {
    const socket = new ScriptedSocket();

    await webSocketStream(socket).readable.cancel();

    expect(socket.readyState).toBe(3);
  });
});
