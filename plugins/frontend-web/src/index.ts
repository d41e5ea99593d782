export { PLUGIN_NAME } from './errors.js';
export { frontendWebPlugin } from './plugin.js';
export { showLoginLink, type LinkShown, type ShowLoginLinkOptions } from './show-login-link.js';
export { webBundleDir } from './web-bundle-dir.js';
export { webFrontend } from './web-frontend.js';
