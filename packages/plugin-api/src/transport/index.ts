/**
 * `@nodwyn/plugin-api/transport`: the transport runtime providers build on (retries with full-jitter
 * backoff, SSE, base-URL checks, failure envelopes), docs/architecture.md §8. Kept off the root entry so
 * the root stays the stable plugin contract.
 */
export * from './backoff.js';
export * from './base-url.js';
export * from './codes.js';
export * from './http-failure.js';
export * from './network-failure.js';
export { scrubServerText } from './provider-error.js';
export * from './retry.js';
export * from './retry-types.js';
export * from './sse.js';
