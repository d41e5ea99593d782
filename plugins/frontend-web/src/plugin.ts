import { definePlugin } from '@nodwyn/plugin-api';
import { PLUGIN_NAME } from './errors.js';
import { webFrontend } from './web-frontend.js';

/** Contributes the web console (`frontend:web`), a front end that runs in the browser against the daemon. */
export const frontendWebPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'The web console: nodwyn in a browser tab, served by nodwyn serve, a client of the protocol.',
    provides: ['frontend:web'],
  },
  register(ctx) {
    ctx.frontends.register(webFrontend());
  },
});
