export * from './envelope.js';
export * from './log-event.js';
export * from './frontend-event.js';
