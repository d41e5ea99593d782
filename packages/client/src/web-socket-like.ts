/** An event of a WebSocket, as browsers' WebSocket and `ws`'s both deliver it. */
export interface WebSocketEventLike {
  readonly type: string;
  /** A `message` event's frame: a string for a text frame. */
  readonly data?: unknown;
  /** A `close` event's code and reason. */
  readonly code?: number;
  readonly reason?: string;
  /** An `error` event's text: `ws` says why (`Unexpected server response: 401`), browsers say nothing. */
  readonly message?: string;
}

/** The event types the client listens to. */
export type WebSocketEventType = 'open' | 'message' | 'close' | 'error';

/** The part of the WHATWG WebSocket API the client uses; browsers' `WebSocket` and `ws`'s both have it. */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: WebSocketEventType, listener: (event: WebSocketEventLike) => void): void;
  removeEventListener(type: WebSocketEventType, listener: (event: WebSocketEventLike) => void): void;
}

/** A WebSocket constructor: the browser's global one, or `ws`'s. */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** `readyState` values. */
export const SOCKET_CONNECTING = 0;
export const SOCKET_OPEN = 1;
export const SOCKET_CLOSED = 3;

/** Closes `socket` unless it is closing or closed already. */
export function closeSocket(socket: WebSocketLike): void {
  if (socket.readyState <= SOCKET_OPEN) socket.close(1000);
}
