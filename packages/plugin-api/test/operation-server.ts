import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvelopeSchema, type Envelope } from '@nodwyn/protocol';
import { expect } from 'vitest';
import { testServer } from './loopback-server.js';
import { createOperationClient } from '../src/transport/operation-client.js';
import type { OperationClient, OperationClientOptions, OperationResult } from '../src/transport/operation-types.js';

/** One request a test server received, its body read in full. */
export interface Hit {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A loopback server on port 0 whose handler sees each request after its body arrived. */
export interface TestServer {
  readonly url: string;
  readonly hits: Hit[];
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1:0 (the transport tests' `testServer`); `handler` answers (or destroys the socket) once the body is read. */
export async function serve(handler: (hit: Hit, response: ServerResponse, request: IncomingMessage) => unknown): Promise<TestServer> {
  const hits: Hit[] = [];
  const server = await testServer((request, response, _n, body) => {
    const hit = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
    hits.push(hit);
    void handler(hit, response, request);
  });
  return { url: server.url, hits, close: () => server.close() };
}

/** Answers JSON. */
export function json(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(value));
}

/** The envelope of a failed result, checked against the protocol's schema. */
export function failureOf(result: OperationResult | { ok: false; envelope: Envelope } | object): Envelope {
  expect(result).toMatchObject({ ok: false });
  const envelope = (result as { envelope: Envelope }).envelope;
  return EnvelopeSchema.parse(envelope);
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * `createOperationClient` whose every failure (of `call`, `open`, `preview`, and a verification's) is
 * parsed with the protocol's EnvelopeSchema, so a test that forgets to look still fails on a bad shape.
 */
export function checkedClient(options: OperationClientOptions): OperationClient {
  const client = createOperationClient(options);
  const check = <T>(result: T): T => {
    const failure = result as { envelope?: unknown; verification?: { envelope?: unknown } };
    if (failure.envelope !== undefined) EnvelopeSchema.parse(failure.envelope);
    if (failure.verification?.envelope !== undefined) EnvelopeSchema.parse(failure.verification.envelope);
    return result;
  };
  return {
    call: async (id, args, options) => check(await client.call(id, args, options)),
    open: async (id, args, options) => check(await client.open(id, args, options)),
    preview: (id, args) => check(client.preview(id, args)),
    describe: (id, args) => client.describe(id, args),
    operation: (id) => client.operation(id),
  };
}
