import { isEnvelopeError } from '../envelope.js';
import type { OAuthSession } from './oauth-session.js';
import type { AuthProvider, OperationDescriptor } from './operation-types.js';

/**
 * Credentials for the operation runtime: `Authorization: Bearer <handle or token>` (or the scheme's own
 * header). After a 401 it refreshes once, when the refused token was not replaced meanwhile, so the
 * runtime resends once; a second 401 is the runtime's envelope. A refresh the token endpoint refuses
 * answers false (the 401 stands), and the next call finds no token: AUTH_FAILED, authorize again.
 */
export function oauthAuthProvider(session: OAuthSession, scheme: { readonly header?: string } = {}): AuthProvider {
  const header = scheme.header ?? 'Authorization';
  return {
    async headers(_operation: OperationDescriptor, signal: AbortSignal) {
      return [[header, `Bearer ${await session.accessToken(signal)}`]];
    },
    async unauthorized(_operation: OperationDescriptor, signal: AbortSignal) {
      try {
        return await session.refresh(signal);
      } catch (error) {
        if (isEnvelopeError(error)) return false;
        throw error;
      }
    },
    // Only a handle can be shown without revealing anything; a session over a plain store shows none.
    describe: () => (session.accessHandle === undefined ? [] : [[header, `Bearer ${session.accessHandle}`]]),
  };
}
