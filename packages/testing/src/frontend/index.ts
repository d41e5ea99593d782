export * from './frontend-conformance.js';
export * from './frontend-launch.js';
export * from './recording-frontend-client.js';
