import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { EnvelopeError, type ModelPrice, type ModelProvider, type ModelRequest, type ModelStreamEvent } from '@nodwyn/plugin-api';
import { parseEventJson, retryingStream, sseEvents, transportEnvelope } from '@nodwyn/plugin-api/transport';
import { attemptClient } from './attempt-client.js';
import { messageParams, toolParams } from './message-params.js';
import { MessageStreamReader, STREAM_CONTEXT } from './message-stream-reader.js';
import { openStream } from './open-stream.js';
import type { AnthropicOptions } from './anthropic-options.js';

/** What a provider was created with: its checked options, base URL, key (or none) and price. */
export interface AnthropicProviderConfig {
  readonly options: AnthropicOptions;
  readonly baseUrl: URL;
  /** The authorization key: a `{{secret:NAME}}` handle, the environment's key for api.anthropic.com, or undefined for none. */
  readonly apiKey: string | undefined;
  readonly price?: ModelPrice;
}

const CONTENT = new Set<ModelStreamEvent['type']>(['text', 'thinking', 'tool_call_delta', 'tool_call']);

/** The Messages API request for a window. */
export function requestBody(request: ModelRequest, options: AnthropicOptions): MessageCreateParamsStreaming {
  const thinking = options.thinkingBudget !== undefined;
  return {
    model: options.model,
    max_tokens: options.maxTokens,
    // The brief is the same for every call of a session, so it is cached: later calls read it at the cache price.
    ...(request.system ? { system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }] } : {}),
    messages: messageParams(request.messages, { thinking }),
    ...(request.tools.length > 0 ? { tools: toolParams(request.tools) } : {}),
    ...(thinking ? { thinking: { type: 'enabled', budget_tokens: options.thinkingBudget } } : {}),
    stream: true,
  };
}

function incomplete(): EnvelopeError {
  return new EnvelopeError(
    transportEnvelope('STREAM_INCOMPLETE', {
      operation: STREAM_CONTEXT.operation,
      plugin: STREAM_CONTEXT.provider,
      remediation: 'The answer from anthropic ended before its message_stop event, so it is incomplete. What arrived is kept in the log; send the message again.',
    }),
  );
}

/**
 * One attempt: send, then decode the event stream as it arrives. The SDK gets a signal of this attempt
 * alone, linked to the caller's, so its abort listener goes with the attempt instead of piling up on a
 * turn's signal; the attempt's signal is aborted on every way out, which releases the connection.
 */
async function* attempt(config: AnthropicProviderConfig, request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) controller.abort(signal.reason);
  try {
    const client = await attemptClient(config.baseUrl, config.apiKey, request.fetch);
    const response = await openStream(client, requestBody(request, config.options), controller.signal);
    const reader = new MessageStreamReader(response.headers);
    for await (const event of sseEvents(response.body, STREAM_CONTEXT)) {
      yield* reader.push(parseEventJson(event, STREAM_CONTEXT));
      if (reader.finished) return;
    }
    throw incomplete();
  } finally {
    signal.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

/**
 * A model on the Anthropic Messages API. Each call runs in the transport runtime: a failure before any
 * content is retried under the policy and the turn's budget (each wait announced by a `retry` event), a
 * failure after content is thrown at once with what arrived already yielded, and a cancel is CANCELLED.
 */
export function anthropicProvider(config: AnthropicProviderConfig): ModelProvider {
  return {
    id: STREAM_CONTEXT.provider,
    model: config.options.model,
    ...(config.price ? { price: config.price } : {}),
    stream(request, signal) {
      return retryingStream(() => attempt(config, request, signal), {
        ...STREAM_CONTEXT,
        policy: config.options.policy,
        budget: request.retries,
        signal,
        isContent: (event) => CONTENT.has(event.type),
        notice: (retry) => ({ type: 'retry', ...retry }),
      });
    },
  };
}
