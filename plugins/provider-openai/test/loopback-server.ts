import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A raw HTTP server on 127.0.0.1, for answers the wire server does not script (odd bodies, held streams). */
export interface LoopbackServer {
  /** The API root, `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  /** How many requests arrived. */
  readonly count: () => number;
  close(): Promise<void>;
}

/** Starts a server that hands each request (its body read) to `handle`. */
export async function startLoopbackServer(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<LoopbackServer> {
  let count = 0;
  const server = createServer((req, res) => {
    count += 1;
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    count: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One Chat Completions SSE event. */
export function chatEvent(delta: object, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** A whole short Chat Completions stream answering `text`. */
export function chatAnswer(text: string): string {
  const usage = `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } })}\n\n`;
  return `${chatEvent({ role: 'assistant', content: '' })}${chatEvent({ content: text })}${chatEvent({}, 'stop')}${usage}data: [DONE]\n\n`;
}
