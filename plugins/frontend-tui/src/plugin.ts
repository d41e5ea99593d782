import { definePlugin, type Frontend } from '@nodwyn/plugin-api';
import { PLUGIN_NAME } from './errors.js';
import { loadTuiModule } from './load-tui.js';

/**
 * The terminal front end, registered without loading it: every `nodwyn` command loads the distribution's
 * plugins, and ink and React (about half a second unbundled, and memory in the daemon) are paid for only
 * when the TUI starts.
 */
const lazyTui: Frontend = {
  id: 'tui',
  description: 'The terminal UI: streamed Markdown answers, tool calls, confirmations, sessions and slash commands',
  start: async (launch) => (await loadTuiModule()).tuiFrontend().start(launch),
};

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
    ctx.frontends.register(lazyTui);
  },
});
