import { definePlugin } from '@nodwyn/plugin-api';
import { PLUGIN_NAME } from './errors.js';
import { tuiFrontend } from './tui-frontend.js';

/** Contributes the terminal front end (`frontend:tui`); the app starts it with a connected client. */
export const frontendTuiPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'The terminal front end: an interactive agent in the terminal (ink), a client of the protocol.',
    provides: ['frontend:tui'],
  },
  register(ctx) {
    ctx.frontends.register(tuiFrontend());
  },
});
