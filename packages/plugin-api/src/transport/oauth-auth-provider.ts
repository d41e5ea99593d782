import type { AuthOperation, AuthProvider } from './auth-provider.js';
import type { OAuthSession } from './oauth-session.js';

/**
 * Credentials for an operation runtime: `Authorization: Bearer <token or handle>` (or the scheme's own
 * header), and after a 401 one refresh, when the token was not replaced meanwhile, so the runtime resends
 * once; a second 401 is the runtime's envelope.
 */
export function oauthAuthProvider(session: OAuthSession, scheme: { readonly header?: string } = {}): AuthProvider {
  const header = scheme.header ?? 'Authorization';
  return {
    async headers(_operation: AuthOperation, signal: AbortSignal) {
      return [[header, `Bearer ${await session.accessToken(signal)}`]];
    },
    unauthorized: (_operation: AuthOperation, signal: AbortSignal) => session.refresh(signal),
  };
}
