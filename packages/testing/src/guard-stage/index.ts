export * from './guard-stage-conformance.js';
