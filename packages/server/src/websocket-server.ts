import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { agentApp, type AgentInfo } from './agent-app.js';
import type { ClientConnection } from './client-connection.js';
import { serverErrors } from './errors.js';
import type { SessionManager } from './session-manager.js';
import { socketStream } from './socket-stream.js';

/** Largest WebSocket frame accepted by default; a bigger one closes that connection (1009). */
export const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;

/** Where and how the WebSocket transport listens. */
export interface WebSocketServerOptions {
  readonly sessions: SessionManager;
  readonly info: AgentInfo;
  /** The bearer token every request must carry. */
  readonly token: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Loopback only: `127.0.0.1`. */
  readonly host?: string;
  readonly maxFrameBytes?: number;
  /** Told about each client that connects, and when it leaves. */
  readonly onConnection?: (connection: ClientConnection, closed: Promise<void>) => void;
}

/** A listening transport. */
export interface ListeningServer {
  /** `ws://127.0.0.1:PORT/acp` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/`, the daemon's own origin. */
  readonly http: string;
  readonly port: number;
  /** Stops accepting, closes every connection (1001) and the listener. */
  close(): Promise<void>;
}

/** The path the protocol is served on. */
export const ACP_PATH = '/acp';

/**
 * Serves the protocol over WebSocket on loopback. Every request needs the token, as
 * `Authorization: Bearer …` or (for browsers, which cannot set headers on an upgrade) a `token` query
 * parameter: without it the answer is 401. An upgrade from another origin than the daemon's own is 403
 * (a web page the person visits cannot drive the agent). Nothing else is served.
 */
export async function startWebSocketServer(options: WebSocketServerOptions): Promise<ListeningServer> {
  const host = options.host ?? '127.0.0.1';
  const sockets = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES });
  const expected = digest(options.token);
  const authorized = (request: IncomingMessage): boolean => {
    const given = tokenOf(request);
    return given !== undefined && timingSafeEqual(digest(given), expected);
  };
  let origin = '';
  const server = createServer((request, response) => answerHttp(request, response, authorized(request)));
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (!authorized(request)) return refuseUpgrade(socket, 401, 'Unauthorized');
    if (request.headers.origin !== undefined && request.headers.origin !== origin) return refuseUpgrade(socket, 403, 'Forbidden');
    if (path !== ACP_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    sockets.handleUpgrade(request, socket, head, (ws) => {
      // ws closes the connection itself on a protocol error (1009 for a frame over the limit, 1002 …) and
      // sends the close frame first; the listener only keeps the error from being thrown.
      ws.on('error', () => undefined);
      agentApp(options.sessions, options.info, (connection, closed) => options.onConnection?.(connection, closed)).connect(socketStream(ws));
    });
  });
  const port = await listen(server, options.port, host);
  origin = `http://${host}:${port}`;
  return {
    url: `ws://${host}:${port}${ACP_PATH}`,
    http: `${origin}/`,
    port,
    close: () => closeAll(server, sockets),
  };
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

function answerHttp(_request: IncomingMessage, response: ServerResponse, authorized: boolean): void {
  const env = authorized
    ? serverErrors.envelope('NOT_SERVED', { operation: 'http', remediation: `Nothing is served here yet; connect a client to ${ACP_PATH} over WebSocket.` })
    : serverErrors.envelope('TOKEN_REQUIRED', { operation: 'http', remediation: 'Send the token from $NODWYN_HOME/serve.json as Authorization: Bearer <token>.' });
  response.writeHead(authorized ? 404 : 401, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(env));
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
