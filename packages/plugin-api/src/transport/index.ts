export * from './backoff.js';
export * from './base-url.js';
export * from './codes.js';
export * from './http-failure.js';
export * from './network-failure.js';
export { scrubServerText } from './provider-error.js';
export * from './retry.js';
export * from './retry-types.js';
export * from './sse.js';
