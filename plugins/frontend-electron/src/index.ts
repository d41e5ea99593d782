export { DESKTOP_APP_ENV, desktopAppPath, desktopFrontend, EXIT } from './desktop-frontend.js';
export { DesktopErrorCode, desktopErrors, PLUGIN_NAME } from './errors.js';
export { frontendElectronPlugin } from './plugin.js';
// The main process (./main) and the preload's bridge (./preload) are subpaths: the plugin never loads them.
