import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server saw, and whether the client closed it before the answer was complete. */
export interface SeenRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** Resolves true when the client dropped the connection before the server ended the answer. */
  readonly closedEarly: Promise<boolean>;
}

/** How the server answers one request: SSE events (`[event, data]`) written `delayMs` apart, or left open after them. */
export interface SseAnswer {
  readonly events: readonly (readonly [string, unknown])[];
  readonly delayMs?: number;
  /** Keep the answer open after the last event, as a server still thinking would. */
  readonly hang?: boolean;
  /** Write nothing, not even the status line, as a server still queueing the request would. */
  readonly silent?: boolean;
}

export interface SseServer {
  readonly url: string;
  readonly requests: readonly SeenRequest[];
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function answer(res: ServerResponse, reply: SseAnswer): Promise<void> {
  if (reply.silent) return;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': 'req_sse_fixture' });
  for (const [event, data] of reply.events) {
    if (res.destroyed) return;
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (reply.delayMs) await sleep(reply.delayMs);
  }
  if (!reply.hang) res.end();
}

/**
 * A loopback server that answers the Messages endpoint with scripted SSE events, for the cases the wire
 * server does not script (an `error` event inside a 200 stream, a stream held open), and records each
 * request's headers, body and whether the client closed it early.
 */
export async function startSseServer(replies: readonly SseAnswer[]): Promise<SseServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = replies[requests.length];
      const closedEarly = new Promise<boolean>((resolve) => res.on('close', () => resolve(!res.writableEnded)));
      requests.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>, closedEarly });
      if (!reply) {
        res.writeHead(500).end();
        return;
      }
      void answer(res, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The events of a short text answer, as the Messages API streams it. */
export function textAnswer(texts: readonly string[], extra: readonly (readonly [string, unknown])[] = []): (readonly [string, unknown])[] {
  return [
    ['message_start', { type: 'message_start', message: { id: 'msg_fixture', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 5, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ...texts.map((text): [string, unknown] => ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }]),
    ...extra,
  ];
}

/** The events that end a text answer. */
export const TEXT_END: readonly (readonly [string, unknown])[] = [
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } }],
  ['message_stop', { type: 'message_stop' }],
];
