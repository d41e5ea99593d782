import { type ModelPrice, type ModelProvider, type ModelRequest, type ModelStreamEvent } from '@nodwyn/plugin-api';
import { retryingStream, sseEvents, type RetryPolicy } from '@nodwyn/plugin-api/transport';
import { chatStream } from './chat-stream.js';
import { openStream, type Endpoint } from './open-stream.js';
import { responsesStream } from './responses-stream.js';
import type { StreamContext } from './stream-failures.js';

/** Everything one provider needs; the key stays in this closure, never on the provider object. */
export interface OpenAiProviderConfig {
  readonly id: string;
  readonly endpoint: Endpoint;
  readonly policy: RetryPolicy;
  readonly price?: ModelPrice;
}

const OPERATION = 'model.stream';
const CONTENT = new Set<ModelStreamEvent['type']>(['text', 'thinking', 'tool_call_delta', 'tool_call']);

async function* attempt(config: OpenAiProviderConfig, request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamEvent> {
  const context: StreamContext = { provider: config.id, operation: OPERATION };
  const body = await openStream(config.endpoint, request, signal, context);
  const events = sseEvents(body, context);
  yield* config.endpoint.api === 'chat' ? chatStream(events, context) : responsesStream(events, context);
}

/**
 * A model behind an OpenAI API. Each call runs in the transport runtime: a failure before any content
 * is retried (a `retry` event first) within the policy and the turn's retry budget; once content was
 * yielded the stream is never replayed; the caller's signal aborts the HTTP request.
 */
export function openAiProvider(config: OpenAiProviderConfig): ModelProvider {
  return {
    id: config.id,
    model: config.endpoint.model,
    ...(config.price ? { price: config.price } : {}),
    stream(request, signal) {
      return retryingStream<ModelStreamEvent>(() => attempt(config, request, signal), {
        policy: config.policy,
        budget: request.retries,
        signal,
        provider: config.id,
        operation: OPERATION,
        isContent: (event) => CONTENT.has(event.type),
        notice: (retry) => ({ type: 'retry', ...retry }),
      });
    },
  };
}
