import type { Stream } from '@agentclientprotocol/sdk';
import type { ReconnectOptions } from './backoff.js';
import { NodwynClient, type ClientOptions, type Dialer } from './nodwyn-client.js';
import { dialWebSocket } from './dial-web-socket.js';
import { clientError } from './protocol-error.js';
import type { WebSocketConstructor } from './web-socket-like.js';

/** Connects over any ACP Stream, such as an end of `linkedStreams()`; resolves once initialized. Never reconnects. */
export function connectStream(stream: Stream, options: ClientOptions): Promise<NodwynClient> {
  return NodwynClient.connect({ stream }, options);
}

/** Where a WebSocket client connects, and how it comes back. */
export interface WebSocketConnectOptions extends ClientOptions {
  /** The daemon's `url` from serve.json: `ws://127.0.0.1:PORT/acp`. */
  readonly url: string;
  /**
   * The daemon's token from serve.json. Left out by the web console's page, whose browser sends the
   * console's HttpOnly session cookie with the upgrade instead, so no token is ever in the page.
   */
  readonly token?: string;
  /** The WebSocket constructor; the global one (a browser's) unless given. */
  readonly WebSocket?: WebSocketConstructor;
  /** How to come back after the connection drops; `false` never reconnects. */
  readonly reconnect?: ReconnectOptions | false;
}

/**
 * Connects to a daemon the way a browser can: the token goes as the `token` query parameter, since a
 * browser cannot set the upgrade's headers. Resolves once initialized; a refused or failed first
 * connection rejects with a ProtocolError.
 */
export function connectWebSocket(options: WebSocketConnectOptions): Promise<NodwynClient> {
  const WebSocketClass = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (WebSocketClass === undefined) {
    return Promise.reject(
      clientError('CLIENT_WEBSOCKET_MISSING', {
        operation: 'websocket.connect',
        remediation: 'This runtime has no global WebSocket: pass one as the WebSocket option, or in Node use connectNode from @nodwyn/client/node.',
      }),
    );
  }
  const url = withToken(options.url, options.token);
  if (url === undefined) {
    return Promise.reject(
      clientError('CLIENT_CONNECT_FAILED', {
        operation: 'websocket.connect',
        failed_parameter: 'url',
        received_value: options.url,
        expected: 'a ws:// or wss:// URL, such as the url in $NODWYN_HOME/serve.json',
        remediation: `${options.url} is not a URL; pass the daemon's url from $NODWYN_HOME/serve.json.`,
      }),
    );
  }
  const dial: Dialer = (onInvalidFrame) => dialWebSocket(() => new WebSocketClass(url), url, onInvalidFrame);
  return NodwynClient.connect({ dial, reconnect: options.reconnect }, options);
}

/** `url` with the token (when given) as its `token` query parameter; undefined when `url` is not a URL. */
function withToken(url: string, token: string | undefined): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (token !== undefined) parsed.searchParams.set('token', token);
  return parsed.toString();
}
