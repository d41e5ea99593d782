import { definePlugin, isEnvelopeError, KeychainToken, optional, TaintToken } from '@nodwyn/plugin-api';
import { existsSync } from 'node:fs';
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
    // Its section says how the secrets are unlocked: only the person's own config sets it.
    userOnlyConfig: true,
    description: 'Secrets encrypted at rest (AES-256-GCM); values leave only through reveal at the egress edge.',
    provides: ['service:keychain', 'command:secret'],
    permissions: ['fs.read', 'fs.write'],
  },
  // L2 is optional: without it there is nothing to teach at start.
  deps: { taint: optional(TaintToken) },
  register(ctx, { taint: tracker }) {
    // Built on first use and shared by the service and the command, so the key is derived once per process;
    // listing plugins or a run without secrets never touches the key.
    let keychain: FileKeychain | undefined;
    const get = (): FileKeychain => (keychain ??= new FileKeychain(join(ctx.dataDir, 'keychain.json'), keySourceFor(ctx.dataDir)));
    ctx.services.provide(KeychainToken, {
      list: () => get().list(),
      info: (name) => get().info(name),
      reveal: (name) => get().reveal(name),
      // A stored value is known to L2 at once, like the values it was taught at start (docs/architecture.md §6).
      store: async (name, cls, value) => {
        await get().add(name, cls, value, true);
        tracker?.remember(PRELOAD_SESSION, value, [cls], { pinned: true });
      },
      remove: (name) => get().removeIfPresent(name),
    });
    ctx.commands.register(secretCommand(get));
  },
  // L2 knows every keychain value from the start, pinned (docs/architecture.md §6): a value that was never
  // revealed can still sit in a file in a spelling L1 misses, and must not be echoed from there.
  async start(ctx, { taint: tracker }) {
    if (!tracker || !existsSync(join(ctx.dataDir, 'keychain.json'))) return;
    const keychain = new FileKeychain(join(ctx.dataDir, 'keychain.json'), keySourceFor(ctx.dataDir));
    const secrets = await keychain.values().catch((error: unknown) => {
      // A keychain this process cannot open (locked, wrong key, corrupt) reveals nothing here either; its
      // envelope reaches whoever asks it for a value.
      if (isEnvelopeError(error)) return [];
      throw error;
    });
    for (const secret of secrets) tracker.remember(PRELOAD_SESSION, secret.value, [secret.class], { pinned: true });
  },
});

/** The session named when L2 is taught the keychain at start; L2's memory is shared by every session. */
const PRELOAD_SESSION = 'keychain';
