import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the test server saw. */
export interface SeenRequest {
  readonly url: string;
  readonly lastEventId?: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** Set when the client closed the connection. */
  closed: boolean;
}

/** A loopback HTTP server for the transport tests; `n` counts requests from 0. */
export interface TestServer {
  readonly url: string;
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 (port 0) that hands each request to `handler`. */
export async function testServer(handler: (req: IncomingMessage, res: ServerResponse, n: number, body: string) => void): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['last-event-id'];
      const seen: SeenRequest = { url: req.url ?? '', headers: req.headers, body, closed: false, ...(typeof header === 'string' ? { lastEventId: header } : {}) };
      requests.push(seen);
      res.on('close', () => (seen.closed = true));
      handler(req, res, requests.length - 1, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts an event-stream answer. */
export function startEvents(res: ServerResponse, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  res.flushHeaders();
}

/** Breaks the connection once what was written has left, so the client sees a transport error mid-body. */
export function dropAfterFlush(res: ServerResponse): void {
  res.write('', () => setTimeout(() => res.socket?.destroy(), 20));
}
