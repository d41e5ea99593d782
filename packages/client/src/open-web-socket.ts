import { clientError, type ProtocolError } from './protocol-error.js';
import { SOCKET_CONNECTING, SOCKET_OPEN, type WebSocketEventLike, type WebSocketLike } from './web-socket-like.js';

/**
 * Resolves once `socket` is open; rejects with the client's envelope when it closes first. `url` names
 * the daemon in that envelope, with any token in it masked.
 */
export function openWebSocket(socket: WebSocketLike, url?: string): Promise<void> {
  if (socket.readyState === SOCKET_OPEN) return Promise.resolve();
  if (socket.readyState !== SOCKET_CONNECTING) return Promise.reject(connectFailure(url, undefined, undefined));
  return new Promise((resolve, reject) => {
    let failure: WebSocketEventLike | undefined;
    const onOpen = () => {
      detach();
      resolve();
    };
    const onError = (event: WebSocketEventLike) => {
      failure = event;
    };
    // An error is always followed by a close; only the close ends the attempt.
    const onClose = (event: WebSocketEventLike) => {
      detach();
      reject(connectFailure(url, failure, event));
    };
    const detach = () => {
      socket.removeEventListener('open', onOpen);
      socket.removeEventListener('error', onError);
      socket.removeEventListener('close', onClose);
    };
    socket.addEventListener('open', onOpen);
    socket.addEventListener('error', onError);
    socket.addEventListener('close', onClose);
  });
}

/** Why a WebSocket did not open: the HTTP status of a refused upgrade when the socket says it (`ws` does). */
export function connectFailure(url: string | undefined, error: WebSocketEventLike | undefined, close: WebSocketEventLike | undefined): ProtocolError {
  const shown = url === undefined ? 'the daemon' : maskToken(url);
  const detail = error?.message || (close?.code !== undefined ? `closed with code ${close.code}` : 'closed');
  const status = /Unexpected server response: (\d{3})/.exec(error?.message ?? '')?.[1];
  const http_status = status === undefined ? undefined : Number(status);
  const base = { operation: 'websocket.connect', received_value: shown, http_status };
  if (http_status === 401) {
    return clientError('CLIENT_AUTH_REJECTED', {
      ...base,
      remediation: `The daemon at ${shown} refused the token (HTTP 401). Use the token in $NODWYN_HOME/serve.json, which changes when the daemon restarts, or connect with connectDaemon, which reads it.`,
    });
  }
  if (http_status === 403) {
    return clientError('CLIENT_ORIGIN_REJECTED', {
      ...base,
      remediation: `The daemon at ${shown} refused this page's Origin (HTTP 403); open the page from the daemon's own http address.`,
    });
  }
  return clientError('CLIENT_CONNECT_FAILED', {
    ...base,
    remediation: `Could not open a WebSocket to ${shown} (${detail}). Check that the daemon runs (\`nodwyn serve\`; its address and token are in $NODWYN_HOME/serve.json) and that the token is current.`,
  });
}

/** The URL with its `token` query parameter masked, fit for an envelope. */
export function maskToken(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.searchParams.has('token')) return url;
    parsed.searchParams.set('token', '[redacted]');
    return parsed.toString();
  } catch {
    // Not a URL at all: the connect failure says so, without echoing what might be a token.
    return '[invalid URL]';
  }
}
