import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One request the fake server received. */
export interface SeenRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: { model?: string; messages?: unknown[] };
}

/**
 * An OpenAI-compatible server on 127.0.0.1 (a local model server, as Ollama is): every chat completion
 * streams `answer` as one delta, then usage, then `[DONE]`. It records what it was sent.
 */
export async function fakeOpenAi(answer: string): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const body = JSON.parse(text || '{}') as SeenRequest['body'];
      seen.push({ path: request.url ?? '', headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
      const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: body.model ?? 'unknown' };
      chunk({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: answer }, finish_reason: null }] });
      chunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      chunk({ ...base, choices: [], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } });
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
