import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isEnvelopeError } from '@nodwyn/plugin-api';
import { openApiError } from '../errors.js';
import type { JsonObject } from '../schema-refs.js';
import { parseFault, takeFault, type Fault, type FaultRule } from './fault-spec.js';
import { answerOf } from './mock-answer.js';
import { matchRoute, paramProblem, routesOf, type MockRoute } from './mock-routes.js';
import { answerJson, answerStream, type AnswerContext } from './mock-respond.js';

/** A request the mock received, as `GET /__mock/requests` lists it (for tests counting re-sends). */
export interface MockRequest {
  readonly method: string;
  readonly path: string;
  readonly operation?: string;
  readonly idempotency_key?: string;
  readonly last_event_id?: string;
  /** The Authorization header as received: tests check a credential arrived only where it is bound. */
  readonly authorization?: string;
  /** sha256 (hex) of the body; undefined without one. */
  readonly body_sha256?: string;
}

/** How a mock starts. */
export interface MockOptions {
  readonly document: JsonObject;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Picks among examples and salts generated events; default 1. */
  readonly seed?: number;
  /** Fault specs applied from the start (`createPet:reset;times=1`). */
  readonly inject?: readonly string[];
}

/** A running mock. */
export interface MockServer {
  /** `http://127.0.0.1:PORT` plus the path of the document's first server. */
  readonly url: string;
  requests(): readonly MockRequest[];
  inject(spec: string, operation?: string): void;
  close(): Promise<void>;
}

const BODY_MAX = 8 * 1024 * 1024;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_MAX) request.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function basePathOf(document: JsonObject): string {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const url = (servers[0] as { url?: unknown } | undefined)?.url;
  if (typeof url !== 'string') return '';
  try {
    return new URL(url, 'http://mock.invalid').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

function json(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Serves `document` on 127.0.0.1 with generated answers and the injected faults (docs/openapi.md, "Mock"). */
export async function startMock(options: MockOptions): Promise<MockServer> {
  const { document } = options;
  const routes = routesOf(document);
  const basePath = basePathOf(document);
  const rules: FaultRule[] = (options.inject ?? []).map(parseFault);
  const log: MockRequest[] = [];
  const calls = new Map<string, number>();
  const context: AnswerContext = { document, seed: options.seed ?? 1 };

  const control = async (request: IncomingMessage, response: ServerResponse, path: string, body: Buffer) => {
    if (request.method === 'GET' && path === '/__mock/requests') return json(response, 200, log);
    if (request.method === 'POST' && path === '/__mock/inject') {
      try {
        const { operation, inject } = JSON.parse(body.toString('utf8')) as { operation?: string; inject?: string };
        const rule = parseFault(String(inject));
        rules.push(operation ? { ...rule, operation } : rule);
        return json(response, 200, { ok: true });
      } catch (error) {
        return json(response, 400, { error: isEnvelopeError(error) ? error.envelope : { message: 'body must be {"operation"?, "inject"}' } });
      }
    }
    return json(response, 404, { error: { code: 'not_found', message: `no mock control at ${path}` } });
  };

  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(request);
    // The control endpoints answer at the root and under the server's path, next to the operations.
    const controlPath = url.pathname.startsWith(`${basePath}/__mock/`) ? url.pathname.slice(basePath.length) : url.pathname;
    if (controlPath.startsWith('/__mock/')) return control(request, response, controlPath, body);
    const method = (request.method ?? 'GET').toUpperCase();
    const below = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) || '/' : undefined;
    const match = below === undefined ? ({ status: 404, message: `no operation at ${url.pathname}` } as const) : matchRoute(routes, method, below);
    const key = request.headers['idempotency-key'];
    const lastEventId = request.headers['last-event-id'];
    log.push({
      method,
      path: url.pathname,
      ...('route' in match ? { operation: match.route.operationId } : {}),
      ...(typeof key === 'string' ? { idempotency_key: key } : {}),
      ...(typeof lastEventId === 'string' ? { last_event_id: lastEventId } : {}),
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
      ...(body.length > 0 ? { body_sha256: createHash('sha256').update(body).digest('hex') } : {}),
    });
    if (!('route' in match)) return json(response, match.status, { error: { code: match.status === 404 ? 'not_found' : 'method_not_allowed', message: match.message } });
    const header = request.headers['x-mock-inject'];
    const fault = typeof header === 'string' ? parseFault(header).fault : takeFault(rules, match.route.operationId);
    const answer = answerOf(document, match.route.operation);
    const streamed = answer.contentType === 'text/event-stream';
    if (fault && (await faulted(fault, request, response, streamed))) return;
    const problem = paramProblem(document, match.route, match.params, url, request.headers) ?? bodyProblem(match.route, body, request);
    if (problem) return json(response, 400, { error: { code: 'bad_request', message: problem } });
    const call = calls.get(match.route.operationId) ?? 0;
    calls.set(match.route.operationId, call + 1);
    if (streamed) return answerStream(context, match.route, answer, request, response, fault);
    return answerJson(context, answer, response, call, method === 'HEAD');
  };

  const server: Server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: { code: 'mock_failed', message: error instanceof Error ? error.message : String(error) } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (cause) =>
      reject(openApiError('MOCK_LISTEN_FAILED', { operation: 'mock.listen', failed_parameter: 'port', received_value: options.port ?? 0, remediation: `The mock cannot listen on 127.0.0.1:${options.port ?? 0} (${cause.message}). Pick another --port.` }, cause)),
    );
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    requests: () => [...log],
    inject(spec, operation) {
      const rule = parseFault(spec);
      rules.push(operation ? { ...rule, operation } : rule);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function bodyProblem(route: MockRoute, body: Buffer, request: IncomingMessage): string | undefined {
  const requestBody = route.operation.requestBody as { required?: unknown } | undefined;
  if (body.length === 0) return requestBody?.required === true ? 'missing required request body' : undefined;
  if (!/json/i.test(String(request.headers['content-type'] ?? ''))) return undefined;
  try {
    JSON.parse(body.toString('utf8'));
    return undefined;
  } catch {
    return 'request body is not valid JSON';
  }
}

/** Applies a fault before answering; true when it answered (or broke) the request itself. */
async function faulted(fault: Fault, request: IncomingMessage, response: ServerResponse, streamed: boolean): Promise<boolean> {
  switch (fault.kind) {
    case 'reset':
      request.socket.destroy();
      return true;
    case 'status':
      json(response, fault.status, { error: { code: 'injected', message: `injected status ${fault.status}` } }, fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter });
      return true;
    case 'delay':
      await sleep(fault.ms);
      return false;
    case 'drop-after':
    case 'stall-after':
      // A stream breaks after N events (mock-respond); any other answer breaks once the request was read.
      if (!streamed) {
        if (fault.kind === 'stall-after') await sleep(fault.ms);
        request.socket.destroy();
        return true;
      }
      return false;
  }
}
