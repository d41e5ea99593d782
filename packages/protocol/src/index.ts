export * from './envelope.js';
export * from './log-event.js';
export * from './frontend-event.js';
export * from './nodwyn-methods.js';
export * from './acp-requests.js';
export * from './frontend-client.js';
export * from './console-methods.js';
export * from './desktop-bridge.js';
