import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { EnvelopeError } from '@nodwyn/plugin-api';
import { httpFailureEnvelope } from '@nodwyn/plugin-api/transport';
import type { AnthropicSdk, AttemptClient } from './attempt-client.js';
import { anthropicError } from './errors.js';
import { STREAM_CONTEXT } from './message-stream-reader.js';

/**
 * The failure as the transport runtime reads it: the guarded fetch's own envelope as it was raised; an
 * abort or a connection failure as is (the runtime makes them CANCELLED or CONNECTION_FAILED); an HTTP
 * error answer as its envelope, with the status, headers and Anthropic's error body.
 */
function failureOf(error: unknown, guardFailure: unknown, { APIConnectionError, APIError, APIUserAbortError }: AnthropicSdk): unknown {
  if (guardFailure !== undefined) return guardFailure;
  if (error instanceof APIUserAbortError || error instanceof APIConnectionError) return error;
  if (error instanceof APIError && typeof error.status === 'number') {
    return new EnvelopeError(httpFailureEnvelope({ ...STREAM_CONTEXT, status: error.status, headers: error.headers, body: error.error ?? undefined }), { cause: error });
  }
  return error;
}

/**
 * Sends the request and returns the raw streaming response, its body unread: `asResponse()` hands back
 * the fetch Response as it arrived, so the body is decoded by the transport runtime's SSE reader, never
 * the SDK's. A 200 that is not an event stream (a proxy's page, a JSON document) is refused here.
 */
export async function openStream(attempt: AttemptClient, body: MessageCreateParamsStreaming, signal: AbortSignal): Promise<Response & { body: ReadableStream<Uint8Array> }> {
  let response: Response;
  try {
    response = await attempt.client.messages.create(body, { signal }).asResponse();
  } catch (error) {
    throw failureOf(error, attempt.guardFailure(), attempt.sdk);
  }
  const type = response.headers.get('content-type') ?? '';
  if (response.body === null || !/^text\/event-stream\b/i.test(type)) {
    await response.body?.cancel();
    throw anthropicError('STREAM_NOT_SSE', {
      operation: STREAM_CONTEXT.operation,
      received_value: type === '' ? '(no content-type)' : type,
      expected: 'text/event-stream',
      request_id: response.headers.get('request-id') ?? undefined,
      remediation: `anthropic answered HTTP ${response.status} with ${type === '' ? 'no content type' : type} instead of an event stream. Check that --base-url points at the Anthropic Messages API (not a web page or a proxy that buffers), then send the message again.`,
    });
  }
  return response as Response & { body: ReadableStream<Uint8Array> };
}
