import { definePlugin } from '@nodwyn/plugin-api';
import { desktopFrontend } from './desktop-frontend.js';
import { PLUGIN_NAME } from './errors.js';

/** Contributes the desktop front end (`frontend:desktop`): `nodwyn` opens the installed desktop app. */
export const frontendElectronPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'The desktop front end: the web console in an Electron window, over a daemon the app supervises.',
    provides: ['frontend:desktop'],
  },
  register(ctx) {
    ctx.frontends.register(desktopFrontend(ctx.config));
  },
});
