import { codedErrors, type Category } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises itself (the transport runtime stamps the provider id). */
export const PLUGIN_NAME = '@nodwyn/plugin-provider-anthropic';

/**
 * Every failure code this plugin raises itself, with the one category it always travels under. HTTP,
 * connection and stream failures are the transport runtime's `TransportCodes`, so an Anthropic 429 and an
 * OpenAI 429 read the same to a front end or a model.
 */
export const AnthropicErrorCode = {
  /** A provider option has a value the provider cannot use (`max_tokens`, `thinking_budget`, `max_attempts`, …). */
  OPTION_INVALID: 'VALIDATION_FAILED',
  /** No API key may be sent to the base URL's host: no `--api-key` handle, and the environment's key is not for it. */
  CREDENTIAL_MISSING: 'AUTH_FAILED',
  /** The server answered 200 with something other than an event stream (a whole JSON document, a web page). */
  STREAM_NOT_SSE: 'UNEXPECTED_RESPONSE',
  /** An event of the stream does not fit the Messages API's sequence (a delta for a block that never started). */
  STREAM_OUT_OF_ORDER: 'UNEXPECTED_RESPONSE',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type AnthropicErrorCode = keyof typeof AnthropicErrorCode;

/** Builds the envelope error for `code`, with its category and this plugin filled in. */
export const anthropicError = codedErrors(PLUGIN_NAME, AnthropicErrorCode).error;
