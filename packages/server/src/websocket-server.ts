import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { agentApp, type AgentInfo } from './agent-app.js';
import type { ClientConnection } from './client-connection.js';
import { CookieSessions } from './cookie-sessions.js';
import { serverErrors } from './errors.js';
import { LoginLinks, type LoginLink } from './login-links.js';
import type { SessionManager } from './session-manager.js';
import { socketStream } from './socket-stream.js';
import { StaticFiles } from './static-files.js';
import { webConsoleHttp } from './web-console-http.js';

/** Largest WebSocket frame accepted by default; a bigger one closes that connection (1009). */
export const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;

/** A TLS certificate and its key, PEM. */
export interface TlsMaterial {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}

/** Where and how the WebSocket transport listens. */
export interface WebSocketServerOptions {
  readonly sessions: SessionManager;
  readonly info: AgentInfo;
  /** The bearer token every request must carry. */
  readonly token: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** `127.0.0.1` unless given; an address beyond loopback needs `tls`. */
  readonly host?: string;
  /** Serve https and wss with this certificate. */
  readonly tls?: TlsMaterial;
  /** The web console's bundle (`index.html`, `assets/`); without it `/` answers WEB_BUNDLE_MISSING. */
  readonly webRoot?: string;
  /** The clock login links expire by (tests move it). */
  readonly now?: () => number;
  readonly maxFrameBytes?: number;
  /** Told about each client that connects, and when it leaves. */
  readonly onConnection?: (connection: ClientConnection, closed: Promise<void>) => void;
}

/** A listening transport. */
export interface ListeningServer {
  /** `ws://127.0.0.1:PORT/acp` (`wss://` under TLS) */
  readonly url: string;
  /** `http://127.0.0.1:PORT/` (`https://` under TLS), the daemon's own origin. */
  readonly http: string;
  readonly port: number;
  /** A one-time login link for the web console. */
  loginLink(): LoginLink;
  /** Stops accepting, closes every connection (1001) and the listener. */
  close(): Promise<void>;
}

/** The path the protocol is served on. */
export const ACP_PATH = '/acp';

/** Hosts that stay on this machine: the only ones served without TLS. */
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Serves the protocol over WebSocket and the web console over HTTP (docs/frontends.md). An upgrade whose
 * `Origin` is not the daemon's own is 403, checked before any credential (a web page the person visits
 * cannot drive the agent). Then every request needs the token (`Authorization: Bearer …`, or a `token`
 * query parameter) or the web console's session cookie: without one the answer is 401. Loopback only,
 * unless `tls` is given: another host without it is refused (TLS_REQUIRED).
 */
export async function startWebSocketServer(options: WebSocketServerOptions): Promise<ListeningServer> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && options.tls === undefined) throw tlsRequired(host);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES });
  const expected = digest(options.token);
  const bearer = (request: IncomingMessage): boolean => {
    const given = tokenOf(request);
    return given !== undefined && timingSafeEqual(digest(given), expected);
  };
  const scheme = options.tls ? 'https' : 'http';
  let origin = '';
  const links = new LoginLinks(() => origin, options.now);
  const cookies = new CookieSessions(options.tls !== undefined);
  const handler = webConsoleHttp({
    links,
    sessions: cookies,
    files: new StaticFiles(options.webRoot),
    origin: () => origin,
    webSocketOrigin: () => origin.replace(/^http/, 'ws'),
    bearer,
  });
  const server = options.tls ? tlsServer(options.tls, handler) : createServer(handler);
  const loginLink = (): LoginLink => links.issue();
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (request.headers.origin !== undefined && request.headers.origin !== origin) return refuseUpgrade(socket, 403, 'Forbidden');
    if (!bearer(request) && !cookies.has(request)) return refuseUpgrade(socket, 401, 'Unauthorized');
    if (path !== ACP_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    sockets.handleUpgrade(request, socket, head, (ws) => {
      // ws closes the connection itself on a protocol error (1009 for a frame over the limit, 1002 …) and
      // sends the close frame first; the listener only keeps the error from being thrown.
      ws.on('error', () => undefined);
      agentApp(options.sessions, options.info, (connection, closed) => options.onConnection?.(connection, closed), { loginLink }).connect(socketStream(ws));
    });
  });
  const port = await listen(server, options.port, host);
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  origin = `${scheme}://${authority}`;
  return {
    url: `${options.tls ? 'wss' : 'ws'}://${authority}${ACP_PATH}`,
    http: `${origin}/`,
    port,
    loginLink,
    close: () => closeAll(server, sockets),
  };
}

function tlsServer(tls: TlsMaterial, handler: RequestListener): Server {
  try {
    return createTlsServer({ cert: tls.cert, key: tls.key }, handler);
  } catch (error) {
    throw serverErrors.error('TLS_INVALID', { operation: 'serve', remediation: `The TLS certificate and key do not make a TLS server (${(error as Error).message}); give a PEM certificate and its PEM private key in [serve] tls_cert and tls_key.` }, error);
  }
}

function tlsRequired(host: string): Error {
  return serverErrors.error('TLS_REQUIRED', {
    operation: 'serve',
    failed_parameter: '[serve] host',
    received_value: host,
    expected: 'a loopback host (127.0.0.1), or [serve] tls_cert and [serve] tls_key',
    remediation: `nodwyn serve listens beyond this machine (${host}) only over TLS: set [serve] tls_cert and [serve] tls_key in config.toml to a PEM certificate and key, or remove [serve] host to stay on 127.0.0.1.`,
  });
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function tokenOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return new URL(request.url ?? '/', 'http://localhost').searchParams.get('token') ?? undefined;
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void =>
      reject(
        serverErrors.error(
          'DAEMON_LISTEN_FAILED',
          { operation: 'serve', received_value: `${host}:${port}`, remediation: error.code === 'EADDRINUSE' ? `Port ${port} is in use; pick another with --port (0 picks a free one).` : `Could not listen on ${host}:${port} (${error.code ?? error.message}).` },
          error,
        ),
      );
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

async function closeAll(server: Server, sockets: WebSocketServer): Promise<void> {
  for (const client of sockets.clients) client.close(1001, 'nodwyn serve is stopping');
  await new Promise<void>((resolve) => sockets.close(() => resolve()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
}
