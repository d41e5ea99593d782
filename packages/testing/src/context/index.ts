export * from './context-conformance.js';
