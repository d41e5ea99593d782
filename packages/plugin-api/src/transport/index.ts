/**
 * `@nodwyn/plugin-api/transport`: the transport runtime providers and API plugins build on (retries with
 * full-jitter backoff, SSE, base-URL checks, failure envelopes, and the operation runtime: preflight,
 * retry tiers, idempotency, unknown outcomes, confirmation tokens, verification), docs/architecture.md
 * §8. Kept off the root entry so the root stays the stable plugin contract.
 */
export * from './backoff.js';
export * from './base-url.js';
export * from './codes.js';
export type { HttpFailureCode } from './failure-remediation.js';
export * from './http-failure.js';
export { DEFAULT_IDEMPOTENCY_HEADER } from './idempotency-key.js';
export * from './idempotency-store.js';
export * from './network-failure.js';
export { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES, createOperationClient } from './operation-client.js';
export { CONFIRMATION_TOKEN_TTL_MS } from './confirmation-token.js';
export { canonicalArgs, argsDigest } from './operation-digest.js';
export { directOperationFetch } from './operation-fetch.js';
export { encodeRfc3986 } from './operation-request.js';
export type * from './operation-types.js';
export { scrubServerText } from './provider-error.js';
export * from './retry.js';
export * from './retry-types.js';
export * from './sse.js';
export { VERIFY_DEFAULTS } from './verification.js';
export * from './sse-resume.js';
export * from './sse-collect.js';
export * from './oauth-auth-provider.js';
export { checkOAuthUrl, type OAuthFailureContext } from './oauth-failure.js';
export * from './oauth-session.js';
export * from './oauth-token.js';
export * from './oauth-types.js';
export * from './pkce.js';
export * from './oauth-keychain-store.js';
