import type { WireErrorReply } from './wire-reply.js';

/** OpenAI's error `type`, `code` and message for a status (https://platform.openai.com/docs/guides/error-codes). */
const ERRORS: Readonly<Record<number, readonly [string, string | null, string]>> = {
  400: ['invalid_request_error', null, 'Invalid request.'],
  401: ['invalid_request_error', 'invalid_api_key', 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.'],
  403: ['invalid_request_error', 'unsupported_country_region_territory', 'Country, region, or territory not supported'],
  404: ['invalid_request_error', 'model_not_found', 'The model does not exist or you do not have access to it.'],
  429: ['requests', 'rate_limit_exceeded', 'Rate limit reached for requests. Please try again in 1s.'],
  500: ['server_error', null, 'The server had an error while processing your request. Sorry about that!'],
  503: ['server_error', null, 'The engine is currently overloaded, please try again later'],
};

/** Error codes that name the request parameter at fault. */
const PARAMS: Readonly<Record<string, string>> = { context_length_exceeded: 'messages' };

/**
 * `{"error":{"message","type","param","code"}}`, the body of every OpenAI error answer (both APIs).
 * A reply's `errorType` is OpenAI's precise `code`; `inputParam` names the request's input field.
 */
export function openAiErrorBody(reply: WireErrorReply, inputParam: string): unknown {
  const [type, code, message] = ERRORS[reply.status] ?? (reply.status >= 500 ? ERRORS[500]! : ERRORS[400]!);
  const chosen = reply.errorType ?? code;
  const param = chosen !== null && PARAMS[chosen] !== undefined ? inputParam : null;
  return { error: { message: reply.message ?? message, type, param, code: chosen } };
}

/** OpenAI request ids: `req_` and 32 hex digits. */
export function openAiRequestId(n: number): string {
  return `req_${n.toString(16).padStart(32, '0')}`;
}
