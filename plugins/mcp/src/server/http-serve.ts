import type { Envelope } from '@nodwyn/plugin-api';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { mcpServerErrors } from './codes.js';
import { createMcpServer, type McpServerInfo, type McpServerOptions } from './mcp-server.js';
import type { McpToolHost } from './tool-host.js';

/** How to serve over streamable HTTP. */
export interface HttpServeOptions extends McpServerOptions {
  /** The bearer token every request must carry (`Authorization: Bearer <token>`). */
  readonly token: string;
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Largest request body read, in bytes; default 4 MiB. */
  readonly maxBodyBytes?: number;
}

/** A running HTTP server. */
export interface McpHttpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Ends every MCP session and stops listening. */
  close(): Promise<void>;
}

/** The MCP endpoint's path. */
export const MCP_PATH = '/mcp';
const SESSION_HEADER = 'mcp-session-id';
const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/**
 * Serves `host` over the MCP streamable HTTP transport on 127.0.0.1 only, one SDK transport and server per
 * MCP session (`Mcp-Session-Id`). Before anything else each request is checked: a `Host` other than the
 * loopback address served and a browser `Origin` other than the server's own are refused (403, against
 * DNS rebinding and web pages), then a missing or wrong bearer token (401). Then only `/mcp` is served; a
 * body that is not JSON is a JSON-RPC parse error (400); the server stays up whatever a request holds.
 */
export async function startMcpHttp(host: McpToolHost, info: McpServerInfo, options: HttpServeOptions): Promise<McpHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const expected = Buffer.from(`Bearer ${options.token}`);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  let port = 0;

  const refuse = (res: ServerResponse, status: number, env: Envelope, headers: Record<string, string> = {}): void => {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: env.remediation, data: env } }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
    const hostHeader = req.headers.host ?? '';
    if (!origins.some((origin) => origin === `http://${hostHeader}`)) return refuse(res, 403, forbidden('Host', hostHeader));
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.includes(origin)) return refuse(res, 403, forbidden('Origin', origin));
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return refuse(res, 401, unauthorized(req.headers.authorization === undefined), { 'www-authenticate': 'Bearer realm="nodwyn"' });
    }
    if (new URL(req.url ?? '/', `http://${hostHeader}`).pathname !== MCP_PATH) return refuse(res, 404, notFound(req.url ?? ''));
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req, maxBody);
      if (read === 'too large') return refuse(res, 413, tooLarge(maxBody));
      try {
        body = JSON.parse(read);
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: 'Parse error: the body is not JSON' } }));
        return;
      }
    }
    const id = req.headers[SESSION_HEADER];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(req, res, body);
    if (typeof id === 'string') return refuse(res, 404, unknownSession(id));
    if (req.method !== 'POST' || !isInitializeRequest(body)) return refuse(res, 400, unknownSession(undefined));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createMcpServer(host, info, options).connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      refuse(res, 500, mcpServerErrors.envelope('MCP_SERVE_REQUEST_FAILED', { remediation: `The request failed: ${error instanceof Error ? error.message : String(error)}` }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    async close() {
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The body as text, or `too large` once it passes `limit` bytes (the rest is not read). */
function readBody(req: IncomingMessage, limit: number): Promise<string | 'too large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve('too large');
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function forbidden(header: 'Host' | 'Origin', value: string): Envelope {
  return mcpServerErrors.envelope('MCP_SERVE_FORBIDDEN', {
    failed_parameter: header,
    received_value: value,
    expected: 'the loopback address this server listens on',
    remediation: `nodwyn mcp serve answers only clients on this machine that reach it at its own loopback address; a request with ${header} "${value}" is refused.`,
  });
}

function unauthorized(missing: boolean): Envelope {
  return mcpServerErrors.envelope('MCP_SERVE_UNAUTHORIZED', {
    failed_parameter: 'Authorization',
    remediation: `${missing ? 'The request has no bearer token' : 'The bearer token is wrong'}: send "Authorization: Bearer <token>" with the token nodwyn mcp serve --http printed (also in $NODWYN_HOME/mcp-serve.json).`,
  });
}

function notFound(path: string): Envelope {
  return mcpServerErrors.envelope('MCP_SERVE_NOT_FOUND', { received_value: path, expected: MCP_PATH, remediation: `The MCP endpoint is ${MCP_PATH}.` });
}

function tooLarge(limit: number): Envelope {
  return mcpServerErrors.envelope('MCP_SERVE_BODY_TOO_LARGE', { expected: `a body of at most ${limit} bytes`, remediation: `Send requests of at most ${limit} bytes.` });
}

function unknownSession(id: string | undefined): Envelope {
  return mcpServerErrors.envelope('MCP_SERVE_SESSION_UNKNOWN', {
    failed_parameter: 'Mcp-Session-Id',
    received_value: id,
    remediation: id === undefined ? 'Start with an initialize request (POST, no Mcp-Session-Id); later requests carry the session id it answers.' : 'This MCP session ended or never existed; initialize a new one.',
  });
}
