export * from './api-range.js';
export * from './distribution.js';
export type { FrontendInfo } from './frontend-registry.js';
export { PLUGIN_HOST_ERRORS, PLUGIN_HOST_PACKAGE, type PluginHostErrorCode } from './errors.js';
export * from './kernel-port.js';
export * from './package-entry.js';
export * from './plugin-host.js';
export * from './plugin-report.js';
export * from './tokens.js';
