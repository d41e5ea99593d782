import type { Frontend } from '@nodwyn/plugin-api';
import { showLoginLink, type ShowLoginLinkOptions } from './show-login-link.js';

/**
 * The web console as a front end (`frontend:web`). It runs in a browser tab, outside this process, so it
 * needs the daemon (`daemon: true`): the app starts `nodwyn serve` and connects first; `start` then gets
 * a login link through the client and opens it (`--no-open`: prints it), and ends with 0 while the
 * console goes on in the browser.
 */
export function webFrontend(io: Omit<ShowLoginLinkOptions, 'open'> = {}): Frontend {
  return {
    id: 'web',
    description: 'The web console: nodwyn in a browser tab, served by nodwyn serve (opened with a one-time login link)',
    daemon: true,
    async start(launch) {
      await showLoginLink(launch.client, { ...io, open: !launch.args.includes('--no-open') });
      return 0;
    },
  };
}
