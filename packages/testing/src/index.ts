export * from './conformance.js';
export * from './drain-stream.js';
export * from './echo-plugin.js';
export * from './list-provider.js';
export * from './registered-providers.js';
export * from './start-test-kernel.js';
export * from './wire/index.js';
export * from './sandbox/index.js';
