import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a loopback server saw of one request. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** Answers one request; a route that never calls `res.end` leaves the request hanging until `close()`. */
export type Route = (seen: SeenRequest, res: ServerResponse) => void;

/**
 * A server on 127.0.0.1 that records every request. Paths without a route get `200 pong`. The escape
 * suite uses two: one the runs are granted, one they are not, to prove nothing reached the second.
 */
export interface RecordingServer {
  readonly origin: string;
  /** `127.0.0.1:PORT`, the form a `net` grant takes. */
  readonly host: string;
  readonly port: number;
  readonly seen: SeenRequest[];
  route(path: string, answer: Route): void;
  close(): Promise<void>;
}

/** Starts a recording server on an ephemeral loopback port. Always `close()` it. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const seen: SeenRequest[] = [];
  const routes = new Map<string, Route>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const record = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(record);
      const route = routes.get(new URL(record.url, 'http://x').pathname);
      if (route) route(record, res);
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('pong');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    port,
    seen,
    route: (path, answer) => routes.set(path, answer),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
