import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireCodec } from './wire-codec.js';
import { modelOf } from './wire-codec.js';
import { WIRE_CODECS } from './wire-codecs.js';
import type { WireDialect, WireErrorReply, WireReply } from './wire-reply.js';
import { WireExchange, type WireRequestRecord } from './wire-request-record.js';
import { writeWireStream } from './wire-stream-writer.js';

/** A running loopback server speaking one provider's wire format. */
export interface WireServer {
  /** Base URL for a client: `http://127.0.0.1:PORT` (Anthropic) or `http://127.0.0.1:PORT/v1` (OpenAI). */
  readonly url: string;
  /** Every request received, in order, live: a record's `finished`/`aborted` change as its exchange ends. */
  readonly requests: readonly WireRequestRecord[];
  /** Drops open connections and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 (a free port) that answers each request to the dialect's streaming endpoint
 * with the next scripted reply, in the provider's real wire format: status codes, headers (`request-id` /
 * `x-request-id`, `content-type: text/event-stream`), SSE event sequences and error bodies. A request
 * elsewhere gets a 404, a body that is not JSON or not `stream: true` a 400, and a request after the script
 * ran out a 400 naming it; none of those takes a reply. Used by the provider wire conformance suite,
 * provider tests, the CLI end-to-end test and the bench.
 */
export async function startWireServer(dialect: WireDialect, replies: readonly WireReply[]): Promise<WireServer> {
  const codec = WIRE_CODECS[dialect];
  const requests: WireExchange[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    // A bug in the server must fail the test run loudly, not leave the client hanging: drop the connection, rethrow.
    void answer(req, res).catch((error: unknown) => {
      res.destroy();
      throw error;
    });
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req).catch(() => undefined);
    if (text === undefined) {
      // The client went away while sending its request: there is no one to answer.
      res.destroy();
      return;
    }
    const body = parseBody(text);
    const exchange = new WireExchange(req.method ?? '', req.url ?? '', flatHeaders(req), body, codec.requestId(requests.length + 1));
    requests.push(exchange);
    res.on('finish', () => exchange.markFinished());
    res.on('close', () => exchange.markClosed());
    const reply = refusal(dialect, exchange) ?? replies[next++] ?? { kind: 'error', status: 400, message: `wire server: no scripted reply left for request ${requests.length} (${replies.length} scripted)` };
    if (reply.kind === 'reset') {
      exchange.droppedByServer = true;
      res.socket?.destroy();
    } else if (reply.kind === 'error') sendError(res, codec, exchange, reply);
    else {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', [codec.requestIdHeader]: exchange.requestId });
      res.flushHeaders();
      const context = { requestId: exchange.requestId, model: modelOf(body), body, created: Math.floor(Date.now() / 1000) };
      await writeWireStream(res, exchange, reply, codec.streamEvents(reply, context));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${codec.basePath}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The answer to a request the dialect's endpoint would not take, if it is one: wrong route, body not a JSON object, not streaming. */
function refusal(dialect: WireDialect, exchange: WireExchange): WireErrorReply | undefined {
  const { path } = WIRE_CODECS[dialect];
  if (exchange.method !== 'POST' || new URL(exchange.path, 'http://127.0.0.1').pathname !== path) {
    return { kind: 'error', status: 404, message: `wire server: no route ${exchange.method} ${exchange.path}; ${dialect} is served at POST ${path}` };
  }
  if (typeof exchange.body !== 'object' || exchange.body === null) return { kind: 'error', status: 400, message: 'wire server: the request body is not a JSON object' };
  if ((exchange.body as { stream?: unknown }).stream !== true) return { kind: 'error', status: 400, message: 'wire server: only streaming requests (`stream: true`) are answered' };
  return undefined;
}

function sendError(res: ServerResponse, codec: WireCodec, exchange: WireExchange, reply: WireErrorReply): void {
  const context = { requestId: exchange.requestId, model: modelOf(exchange.body), body: exchange.body, created: 0 };
  const text = JSON.stringify(codec.errorBody(reply, context));
  res.writeHead(reply.status, { 'content-type': 'application/json', [codec.requestIdHeader]: exchange.requestId, ...reply.headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON body, or its raw text when it is not JSON (answered with a 400). */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
