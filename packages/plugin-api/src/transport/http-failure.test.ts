import { EnvelopeSchema } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { httpFailureEnvelope, isRetryableFailure } from './http-failure.js';
import { networkFailureEnvelope } from './network-failure.js';
import { scrubServerText } from './provider-error.js';

const anthropic = (type: string, message: string) => ({ type: 'error', error: { type, message } });
const openai = (code: string | null, type: string, message: string) => ({ error: { message, type, param: null, code } });

function mapped(provider: string, status: number, body: unknown, headers?: Record<string, string>) {
  return httpFailureEnvelope({ status, body, provider, operation: 'model.stream', headers: headers === undefined ? undefined : new Headers(headers) });
}

describe('httpFailureEnvelope', () => {
  it.each([
    ['anthropic', 400, anthropic('invalid_request_error', 'max_tokens: must be positive'), 'VALIDATION_FAILED', 'HTTP_BAD_REQUEST', 'after_remediation'],
    ['anthropic', 400, anthropic('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum'), 'VALIDATION_FAILED', 'CONTEXT_TOO_LONG', 'after_remediation'],
    ['anthropic', 401, anthropic('authentication_error', 'invalid x-api-key'), 'AUTH_FAILED', 'AUTH_INVALID', 'after_remediation'],
    ['anthropic', 402, anthropic('billing_error', 'Your credit balance is too low'), 'PRECONDITION_FAILED', 'INSUFFICIENT_QUOTA', 'after_remediation'],
    ['anthropic', 403, anthropic('permission_error', 'not allowed'), 'PERMISSION_DENIED', 'FORBIDDEN', 'after_remediation'],
    ['anthropic', 404, anthropic('not_found_error', 'model: claude-x'), 'NOT_FOUND', 'NOT_FOUND', 'after_remediation'],
    ['anthropic', 413, anthropic('request_too_large', 'Request exceeds the maximum size'), 'LIMIT_EXCEEDED', 'REQUEST_TOO_LARGE', 'after_remediation'],
    ['anthropic', 429, anthropic('rate_limit_error', 'Number of requests has exceeded your rate limit'), 'RATE_LIMITED', 'RATE_LIMITED', 'after_delay'],
    ['anthropic', 500, anthropic('api_error', 'Internal server error'), 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_ERROR', 'after_delay'],
    ['anthropic', 529, anthropic('overloaded_error', 'Overloaded'), 'UPSTREAM_UNAVAILABLE', 'OVERLOADED', 'after_delay'],
    ['anthropic', 200, anthropic('overloaded_error', 'Overloaded'), 'UPSTREAM_UNAVAILABLE', 'OVERLOADED', 'after_delay'],
    ['anthropic', 200, anthropic('rate_limit_error', 'slow down'), 'RATE_LIMITED', 'RATE_LIMITED', 'after_delay'],
    ['openai', 400, openai('context_length_exceeded', 'invalid_request_error', "This model's maximum context length is 128000 tokens."), 'VALIDATION_FAILED', 'CONTEXT_TOO_LONG', 'after_remediation'],
    ['openai', 400, openai(null, 'invalid_request_error', "Unrecognized request argument supplied: foo"), 'VALIDATION_FAILED', 'HTTP_BAD_REQUEST', 'after_remediation'],
    ['openai', 401, openai('invalid_api_key', 'invalid_request_error', 'Incorrect API key provided'), 'AUTH_FAILED', 'AUTH_INVALID', 'after_remediation'],
    ['openai', 404, openai('model_not_found', 'invalid_request_error', 'The model `gpt-9` does not exist'), 'NOT_FOUND', 'NOT_FOUND', 'after_remediation'],
    ['openai', 408, undefined, 'TIMEOUT', 'REQUEST_TIMEOUT', 'after_delay'],
    ['openai', 429, openai('rate_limit_exceeded', 'requests', 'Rate limit reached for requests'), 'RATE_LIMITED', 'RATE_LIMITED', 'after_delay'],
    ['openai', 429, openai('insufficient_quota', 'insufficient_quota', 'You exceeded your current quota, please check your plan and billing details.'), 'PRECONDITION_FAILED', 'INSUFFICIENT_QUOTA', 'after_remediation'],
    ['openai', 500, openai(null, 'server_error', 'The server had an error'), 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_ERROR', 'after_delay'],
    ['openai', 502, '<html>Bad gateway</html>', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_ERROR', 'after_delay'],
    ['openai', 503, openai(null, 'server_error', 'The engine is currently overloaded, please try again later'), 'UPSTREAM_UNAVAILABLE', 'OVERLOADED', 'after_delay'],
    ['openai', 200, openai('server_error', 'server_error', 'stream failed'), 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_ERROR', 'after_delay'],
    ['openai', 200, openai('toString', 'constructor', 'odd names'), 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_ERROR', 'after_delay'],
    ['openai-compatible', 400, { object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens", type: 'BadRequestError', code: 400 }, 'VALIDATION_FAILED', 'CONTEXT_TOO_LONG', 'after_remediation'],
    ['openai-compatible', 400, { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } }, 'VALIDATION_FAILED', 'CONTEXT_TOO_LONG', 'after_remediation'],
    ['openai-compatible', 500, { error: 'prompt too long; exceeded max context length by 12 tokens' }, 'VALIDATION_FAILED', 'CONTEXT_TOO_LONG', 'after_remediation'],
    ['openai-compatible', 400, { error: { message: 'The number of tokens to keep from the initial prompt is greater than the context length', type: 'invalid_request_error' } }, 'VALIDATION_FAILED', 'CONTEXT_TOO_LONG', 'after_remediation'],
    ['openai-compatible', 404, { error: { message: 'model "llama9" not found, try pulling it first', type: 'api_error', param: null, code: null } }, 'NOT_FOUND', 'NOT_FOUND', 'after_remediation'],
    ['openai-compatible', 422, { detail: 'field required' }, 'VALIDATION_FAILED', 'HTTP_BAD_REQUEST', 'after_remediation'],
    ['openai-compatible', 302, undefined, 'UNEXPECTED_RESPONSE', 'UNEXPECTED_STATUS', 'never'],
  ])('%s %i %j → %s %s', (provider, status, body, category, code, retryable) => {
    expect(EnvelopeSchema.safeParse(mapped(provider, status, body, { 'retry-after-ms': '12.5' })).success).toBe(true);
    expect(mapped(provider, status, body)).toMatchObject({ status: 'error', category, code, retryable, http_status: status, plugin: provider, operation: 'model.stream' });
  });

  it('says what to do about a context that is too long', () => {
    const env = mapped('anthropic', 400, anthropic('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum'));
    expect(env.remediation).toMatch(/context window/);
    expect(env.remediation).toMatch(/new session/);
    expect(env.remediation).toMatch(/fork/);
    expect(env.remediation).toMatch(/budgets\.window_tokens/);
    expect(env.remediation).toContain('prompt is too long');
  });

  it('names the key commands and the environment variable for a refused key', () => {
    const env = mapped('anthropic', 401, anthropic('authentication_error', 'invalid x-api-key'));
    expect(env.remediation).toContain('API key for anthropic was refused');
    expect(env.remediation).toContain('nodwyn secret');
    expect(env.remediation).toContain('ANTHROPIC_API_KEY');
    expect(mapped('openai-compatible', 401, undefined).remediation).not.toMatch(/_API_KEY/);
  });

  it('sends a quota problem to billing, not to waiting', () => {
    const env = mapped('openai', 429, openai('insufficient_quota', 'insufficient_quota', 'You exceeded your current quota'), { 'retry-after': '1' });
    expect(env.remediation).toMatch(/billing/);
    expect(isRetryableFailure(env)).toBe(false);
  });

  it('carries the request id from request-id or x-request-id, and retry_after_ms from the headers', () => {
    const first = mapped('anthropic', 429, anthropic('rate_limit_error', 'x'), { 'request-id': 'req_011', 'retry-after': '7' });
    expect(first).toMatchObject({ request_id: 'req_011', retry_after_ms: 7000 });
    expect(first.remediation).toMatch(/Wait 7 s/);
    expect(mapped('openai', 500, undefined, { 'x-request-id': 'req_abc', 'retry-after-ms': '20' })).toMatchObject({ request_id: 'req_abc', retry_after_ms: 20 });
    expect(mapped('openai', 500, undefined)).toMatchObject({ request_id: null, retry_after_ms: null });
  });

  it('never repeats a key the server echoed, and cuts long messages', () => {
    const body = openai('invalid_api_key', 'invalid_request_error', `Incorrect API key provided: sk-proj-abcd1234efgh. Authorization: Bearer tok_123456 ${'z'.repeat(400)}`);
    const text = JSON.stringify(mapped('openai', 401, body));
    expect(text).not.toContain('abcd1234efgh');
    expect(text).not.toContain('tok_123456');
    expect(mapped('openai', 401, body).remediation.length).toBeLessThan(700);
  });
});

describe('scrubServerText', () => {
  it('replaces sk- keys, Bearer and Basic values and key= parameters, and folds whitespace', () => {
    expect(scrubServerText('key sk-ant-api03-AbC_dEf-123 and\n Bearer abc.def and Basic dXNlcjpw and ?api_key=s3cret&x=1')).toBe(
      'key sk-[REDACTED] and Bearer [REDACTED] and Basic [REDACTED] and ?api_key=[REDACTED]&x=1',
    );
  });

  it('cuts at the limit with an ellipsis', () => {
    expect(scrubServerText('a'.repeat(300))).toBe(`${'a'.repeat(200)}…`);
  });
});

describe('networkFailureEnvelope', () => {
  const context = { provider: 'openai', operation: 'model.stream', afterContent: false };
  const fetchFailed = (code: string, message: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });

  it('maps a reset before any content to a retryable CONNECTION_FAILED naming the cause', () => {
    const env = networkFailureEnvelope(fetchFailed('ECONNRESET', 'read ECONNRESET'), context);
    expect(env).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'CONNECTION_FAILED', retryable: 'after_delay', plugin: 'openai' });
    expect(env.remediation).toContain('ECONNRESET');
    expect(isRetryableFailure(env)).toBe(true);
  });

  it('tells to start a local server when the connection is refused', () => {
    expect(networkFailureEnvelope(fetchFailed('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), context).remediation).toMatch(/start it/);
  });

  it('does not retry DNS and TLS failures blindly', () => {
    expect(networkFailureEnvelope(fetchFailed('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example'), context).retryable).toBe('after_remediation');
    expect(networkFailureEnvelope(fetchFailed('CERT_HAS_EXPIRED', 'certificate has expired'), context).retryable).toBe('after_remediation');
  });

  it('after content, is STREAM_BROKEN: not retried, what arrived kept, nothing replayed', () => {
    const env = networkFailureEnvelope(new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }), { ...context, afterContent: true });
    expect(env).toMatchObject({ category: 'TRANSPORT_FAILED', code: 'STREAM_BROKEN', retryable: 'after_remediation' });
    expect(env.remediation).toMatch(/kept in the log/);
    expect(env.remediation).toMatch(/nothing was replayed/);
    expect(isRetryableFailure(env)).toBe(false);
  });

  it('reports an abort as CANCELLED', () => {
    expect(networkFailureEnvelope(new DOMException('aborted', 'AbortError'), context)).toMatchObject({ category: 'CANCELLED', code: 'CANCELLED' });
  });
});
