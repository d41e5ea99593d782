import { definePlugin, KeychainToken } from '@nodwyn/plugin-api';
import { join } from 'node:path';
import { FileKeychain } from './file-keychain.js';
import { keySourceFor } from './key-source.js';
import { secretCommand } from './secret-command.js';

export { FileKeychain, type AddOutcome } from './file-keychain.js';
export { KeychainCodes, type KeychainCode } from './errors.js';
export { keySourceFor, type KeySource } from './key-source.js';

/** The keychain: secrets encrypted at rest in `<dataDir>/keychain.json`, shared as the `keychain` service. */
export const keychainPlugin = definePlugin({
  manifest: {
    name: '@nodwyn/plugin-keychain',
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'Secrets encrypted at rest (AES-256-GCM); values leave only through reveal at the egress edge.',
    provides: ['service:keychain', 'command:secret'],
    permissions: ['fs.read', 'fs.write'],
  },
  register(ctx) {
    // Built on first use and shared by the service and the command, so the key is derived once per process;
    // listing plugins or a run without secrets never touches the key.
    let keychain: FileKeychain | undefined;
    const get = (): FileKeychain => (keychain ??= new FileKeychain(join(ctx.dataDir, 'keychain.json'), keySourceFor(ctx.dataDir)));
    // Only the three Keychain methods: add and remove stay with the person at the CLI.
    ctx.services.provide(KeychainToken, {
      list: () => get().list(),
      info: (name) => get().info(name),
      reveal: (name) => get().reveal(name),
    });
    ctx.commands.register(secretCommand(get));
  },
});
