import type { Keychain } from '../services.js';
import type { OAuthTokens, OAuthTokenStore } from './oauth-types.js';

/** What `keychainTokenStore` keeps beside the tokens: no value of any token. */
interface StoredMetadata {
  readonly expiresAt?: number;
  readonly scope?: string;
}

/** The keychain names of one token set: `<name>.access`, `<name>.refresh`, `<name>.meta`. */
export function tokenSecretNames(name: string): { readonly access: string; readonly refresh: string; readonly meta: string } {
  return { access: `${name}.access`, refresh: `${name}.refresh`, meta: `${name}.meta` };
}

/**
 * Keeps OAuth2 tokens in the keychain (docs/architecture.md §8): the access and refresh tokens as secrets
 * of class `cls`, the expiry and scope as a third entry holding no token. Requests carry the access
 * token's `{{secret:<name>.access}}` handle, which the egress edge reveals and binds like any secret, so
 * the token itself never passes through a tool, a log or the model. `name` must leave room for the
 * longest suffix within the keychain's 64-character names.
 */
export function keychainTokenStore(keychain: Keychain, name: string, cls = 'oauth-token'): OAuthTokenStore {
  const names = tokenSecretNames(name);
  const revealed = async (secret: string): Promise<string | undefined> => ((await keychain.info(secret)) === undefined ? undefined : keychain.reveal(secret));
  return {
    accessHandle: `{{secret:${names.access}}}`,
    async get() {
      const accessToken = await revealed(names.access);
      if (accessToken === undefined) return undefined;
      const refreshToken = await revealed(names.refresh);
      const meta = parseMetadata(await revealed(names.meta));
      return { accessToken, ...(refreshToken === undefined ? {} : { refreshToken }), ...meta };
    },
    async set(tokens: OAuthTokens) {
      const meta: StoredMetadata = { ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }), ...(tokens.scope === undefined ? {} : { scope: tokens.scope }) };
      await keychain.store(names.access, cls, tokens.accessToken);
      if (tokens.refreshToken === undefined) await keychain.remove(names.refresh);
      else await keychain.store(names.refresh, cls, tokens.refreshToken);
      await keychain.store(names.meta, `${cls}-meta`, JSON.stringify(meta));
    },
    async delete() {
      for (const secret of [names.access, names.refresh, names.meta]) await keychain.remove(secret);
    },
  };
}

function parseMetadata(text: string | undefined): StoredMetadata {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Unreadable metadata only loses the expiry: the token is used until the API refuses it, then refreshed.
    return {};
  }
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  return {
    ...(typeof record.expiresAt === 'number' ? { expiresAt: record.expiresAt } : {}),
    ...(typeof record.scope === 'string' ? { scope: record.scope } : {}),
  };
}
