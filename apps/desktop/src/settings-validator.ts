import { connectNode } from '@nodwyn/client/node';
import type { SettingsValidator } from '@nodwyn/plugin-frontend-electron/main';

/** Asks the running daemon `_nodwyn/settings/validate` over a short-lived connection with the bearer token. */
export function daemonSettingsValidator(version: string): SettingsValidator {
  return async (settings, endpoint) => {
    const client = await connectNode({ url: endpoint.url, token: endpoint.token, reconnect: false, clientInfo: { name: 'nodwyn-desktop', version } });
    try {
      return await client.console.validateSettings(settings);
    } finally {
      await client.close();
    }
  };
}
