export * from './command-conformance.js';
