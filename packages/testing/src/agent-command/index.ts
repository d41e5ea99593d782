export * from './agent-command-conformance.js';
