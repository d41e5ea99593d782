import { EnvelopeError, isEnvelopeError, type GuardedFetch, type ModelRequest } from '@nodwyn/plugin-api';
import { httpFailureEnvelope, networkFailureEnvelope } from '@nodwyn/plugin-api/transport';
import { chatBody, type RequestShape } from './chat-request.js';
import { openAiError } from './errors.js';
import type { OpenAiApi } from './provider-options.js';
import { responsesBody } from './responses-request.js';
import type { StreamContext } from './stream-failures.js';

/** Where and how one provider sends its requests. */
export interface Endpoint extends RequestShape {
  readonly api: OpenAiApi;
  readonly baseUrl: URL;
  /** The Bearer value; undefined sends no Authorization header (a loopback server without a key). */
  readonly apiKey: string | undefined;
}

/**
 * The guarded fetch, keeping a copy of an error answer: the SDK's APIError keeps only a body's `error`
 * member, and OpenAI-compatible servers also answer `{"object":"error","message":…}`, `{"detail":…}` or
 * plain text, which the transport runtime reads too.
 */
function keepingErrorBodies(fetch: GuardedFetch): { fetch: GuardedFetch; errorBody(): Promise<unknown> } {
  let failed: Response | undefined;
  return {
    async fetch(input, init) {
      const response = await fetch(input, init);
      if (!response.ok) failed = response.clone();
      return response;
    },
    async errorBody() {
      // A copy that cannot be read (the connection dropped mid-body) leaves the SDK's `error` member to go on.
      const raw = failed === undefined ? undefined : await failed.text().catch(() => undefined);
      if (raw === undefined || raw.trim() === '') return undefined;
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
    },
  };
}

/** The SDK, loaded on the first request: a run on another provider never pays for parsing it. */
type Sdk = typeof import('openai');
let sdk: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> => (sdk ??= import('openai'));

/**
 * What the SDK threw, as the transport runtime reads it: an HTTP error answer → its envelope; a refused,
 * reset or failed connection → CONNECTION_FAILED (the guarded fetch's own envelope, e.g. an egress denial,
 * kept as it is); an abort passes through for the runtime to call CANCELLED.
 */
async function requestFailure(error: unknown, errorBody: () => Promise<unknown>, context: StreamContext, { APIConnectionError, APIError, APIUserAbortError }: Sdk): Promise<unknown> {
  if (error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionError) {
    if (isEnvelopeError(error.cause)) return error.cause;
    return new EnvelopeError(networkFailureEnvelope(error.cause ?? error, { ...context, afterContent: false }), { cause: error });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const body = (await errorBody()) ?? (error.error === undefined ? undefined : { error: error.error });
    return new EnvelopeError(httpFailureEnvelope({ status: error.status, headers: error.headers, body, ...context }), { cause: error });
  }
  return error;
}

/** The body of a 200 answer, when it is an event stream. */
async function eventStream(response: Response, context: StreamContext): Promise<ReadableStream<Uint8Array>> {
  const type = response.headers.get('content-type') ?? '';
  if (response.body !== null && (type === '' || /text\/event-stream/i.test(type))) return response.body;
  await response.body?.cancel();
  throw openAiError('STREAM_NOT_SSE', {
    operation: context.operation,
    received_value: type || 'no body',
    expected: 'text/event-stream',
    remediation: `${context.provider} answered with ${type || 'an empty body'} instead of an event stream. Check --base-url: it must be the API root that serves /chat/completions (or /responses with --api responses), such as http://127.0.0.1:11434/v1, and the server must support streaming.`,
  });
}

/**
 * Sends one streaming request with the official SDK over the guarded fetch and returns the raw event-stream
 * body (`.asResponse()`, so the SDK's own SSE parser never runs; the runtime's decodes it). The SDK does
 * not retry (`maxRetries: 0`: the transport runtime does), reads nothing from the environment (key,
 * organization, project and base URL are given), and logs nothing.
 */
export async function openStream(endpoint: Endpoint, request: ModelRequest, signal: AbortSignal, context: StreamContext): Promise<ReadableStream<Uint8Array>> {
  const guarded = keepingErrorBodies(request.fetch);
  const loaded = await loadSdk();
  const client = new loaded.OpenAI({
    apiKey: endpoint.apiKey ?? 'none',
    baseURL: endpoint.baseUrl.href,
    fetch: guarded.fetch,
    maxRetries: 0,
    organization: null,
    project: null,
    webhookSecret: null,
    logLevel: 'off',
    ...(endpoint.apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
  });
  try {
    const response =
      endpoint.api === 'chat'
        ? await client.chat.completions.create(chatBody(request, endpoint), { signal }).asResponse()
        : await client.responses.create(responsesBody(request, endpoint), { signal }).asResponse();
    return await eventStream(response, context);
  } catch (error) {
    throw await requestFailure(error, guarded.errorBody, context, loaded);
  }
}
