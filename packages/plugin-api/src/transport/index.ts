export * from './retry-types.js';
