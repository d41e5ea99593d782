import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { callsSettled, createMcpServer, type McpServerInfo, type McpServerOptions } from './mcp-server.js';
import type { McpToolHost } from './tool-host.js';

/** Where the stdio server reads and writes; the process's own by default. */
export interface StdioServeOptions extends McpServerOptions {
  readonly input?: Readable;
  readonly output?: Writable;
  /** Stops serving when it fires: running calls are aborted and stdin is let go. */
  readonly signal?: AbortSignal;
  /** Told of what went wrong outside any request (a frame that is no JSON-RPC), one line each. */
  readonly onNotice?: (line: string) => void;
}

/**
 * Serves `host` to one client over newline-delimited JSON-RPC on stdin and stdout (the client runs
 * `nodwyn mcp serve` as its child). Stdout carries nothing but JSON-RPC. A line that is not JSON is
 * answered with a parse error (-32700), one that is not a JSON-RPC message with an invalid request
 * (-32600), an unknown method with -32601 (the SDK's), and the server reads on. Resolves when the client
 * has closed stdin and the calls it sent before have answered, or once `signal` fires (running calls are
 * aborted).
 */
export async function serveMcpStdio(host: McpToolHost, info: McpServerInfo, options: StdioServeOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const transport = new StdioServerTransport(input, output);
  const server = createMcpServer(host, info, options);
  // Closing stdin is how a client ends the server: the calls already sent still answer, then it closes.
  // Each wait is one turn of the event loop: for the SDK to hand the last lines read to their handlers,
  // then for it to write the answers of the calls that ended.
  const ended = new Promise<void>((resolve) => {
    const drain = (): void => void nextTurn().then(() => callsSettled(server)).then(nextTurn).then(() => server.close());
    input.once('end', drain);
    input.once('close', drain);
    server.onclose = chain(server.onclose, resolve);
  });
  server.onerror = (error) => {
    const code = badFrameCode(error);
    if (code === undefined) {
      options.onNotice?.(`mcp serve: ${error.message}`);
      return;
    }
    const message = code === ErrorCode.ParseError ? 'Parse error: the line is not JSON' : 'Invalid request: the line is not a JSON-RPC 2.0 message';
    transport.send({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage).catch(() => undefined);
  };
  await server.connect(transport);
  const stop = (): void => void server.close();
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    await ended;
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
}

/** The JSON-RPC code of a frame the transport could not read: not JSON, or JSON but no JSON-RPC message. */
function badFrameCode(error: Error): number | undefined {
  if (error instanceof SyntaxError) return ErrorCode.ParseError;
  if (error.name === 'ZodError' || Array.isArray((error as { issues?: unknown }).issues)) return ErrorCode.InvalidRequest;
  return undefined;
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function chain(first: (() => void) | undefined, then: () => void): () => void {
  return () => {
    first?.();
    then();
  };
}
