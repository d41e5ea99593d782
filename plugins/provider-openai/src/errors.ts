import { codedErrors, type Category } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises itself (the transport runtime stamps the provider id). */
export const PLUGIN_NAME = '@nodwyn/plugin-provider-openai';

/**
 * Every failure code this plugin raises itself, with the one category it always travels under. HTTP,
 * connection and stream failures are the transport runtime's `TransportCodes`.
 */
export const OpenAiErrorCode = {
  /** A provider option that has no default was not given (`--model`, `--base-url` for openai-compatible). */
  OPTION_MISSING: 'VALIDATION_FAILED',
  /** A provider option has a value the provider cannot use (`--api`, `max_tokens`, `max_attempts`, …). */
  OPTION_INVALID: 'VALIDATION_FAILED',
  /** No API key may be sent to the base URL's host: no `--api-key` handle, and the environment's key is not for it. */
  CREDENTIAL_MISSING: 'AUTH_FAILED',
  /** The server answered 200 with something other than an event stream (a whole JSON document, a web page). */
  STREAM_NOT_SSE: 'UNEXPECTED_RESPONSE',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type OpenAiErrorCode = keyof typeof OpenAiErrorCode;

/** Builds the envelope error for `code`, with its category and this plugin filled in. */
export const openAiError = codedErrors(PLUGIN_NAME, OpenAiErrorCode).error;
