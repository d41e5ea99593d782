import { EnvelopeError } from '../envelope.js';
import { cancelledEnvelope } from './network-failure.js';
import { notAuthorizedEnvelope, type OAuthFailureContext } from './oauth-failure.js';
import { refreshTokens, type TokenRequestOptions } from './oauth-token.js';
import type { OAuthClient, OAuthFetch, OAuthFlow, OAuthTokenStore } from './oauth-types.js';

/** A refresh starts this long before the access token expires (docs/architecture.md §8). */
export const REFRESH_BEFORE_EXPIRY_MS = 30_000;

/** Longest a shared refresh request may take; it serves every waiting caller, so no one caller's signal ends it. */
const REFRESH_TIMEOUT_MS = 30_000;

/** The access token of an API, refreshed when needed, shared by every call to that API. */
export interface OAuthSession {
  /**
   * What a request carries: the store's `{{secret:NAME}}` handle, or the token itself when the store has
   * none. No stored token is AUTH_FAILED before anything is sent; a token that expires within 30 s is
   * refreshed first (one request for all concurrent callers), or AUTH_FAILED without a refresh token.
   */
  accessToken(signal: AbortSignal): Promise<string>;
  /**
   * Refreshes after the API refused `failedToken` (default: the token last handed out). True when a new
   * token is ready: the one already replaced meanwhile, or the one this refresh got. False without a
   * refresh token. A failed refresh is an EnvelopeError; a 4xx from the token endpoint deleted the tokens.
   */
  refresh(signal: AbortSignal, failedToken?: string): Promise<boolean>;
  /** The store's `{{secret:NAME}}` handle of the access token, when it has one. */
  readonly accessHandle?: string;
}

/** The session's clock and the names its envelopes carry. */
export interface OAuthSessionOptions extends OAuthFailureContext {
  readonly now?: () => number;
}

/** A session over one flow, client and token store (docs/architecture.md §8). */
export function oauthSession(flow: OAuthFlow, client: OAuthClient, store: OAuthTokenStore, fetch: OAuthFetch, options: OAuthSessionOptions = {}): OAuthSession {
  const now = options.now ?? Date.now;
  const context = { operation: options.operation, plugin: options.plugin };
  let inflight: Promise<void> | undefined;
  let issued: string | undefined;

  // One refresh at a time: whoever comes while one runs waits for it instead of sending another.
  const shared = (): Promise<void> => {
    const request: TokenRequestOptions = { ...context, now, signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS) };
    inflight ??= refreshTokens(flow, client, store, fetch, request)
      .then(() => undefined)
      .finally(() => (inflight = undefined));
    return inflight;
  };

  return {
    ...(store.accessHandle === undefined ? {} : { accessHandle: store.accessHandle }),
    async accessToken(signal) {
      let tokens = await store.get();
      if (tokens === undefined) throw new EnvelopeError(notAuthorizedEnvelope('none', context));
      if (tokens.expiresAt !== undefined && tokens.expiresAt - now() <= REFRESH_BEFORE_EXPIRY_MS) {
        if (tokens.refreshToken === undefined && inflight === undefined) throw new EnvelopeError(notAuthorizedEnvelope('expired', context));
        await abortable(shared(), signal, context);
        tokens = await store.get();
        if (tokens === undefined) throw new EnvelopeError(notAuthorizedEnvelope('none', context));
      }
      issued = tokens.accessToken;
      return store.accessHandle ?? tokens.accessToken;
    },
    async refresh(signal, failedToken = issued) {
      if (inflight !== undefined) {
        await abortable(inflight, signal, context);
        return true;
      }
      const tokens = await store.get();
      if (tokens === undefined) return false;
      if (failedToken !== undefined && tokens.accessToken !== failedToken) return true;
      if (tokens.refreshToken === undefined) return false;
      await abortable(shared(), signal, context);
      return true;
    },
  };
}

/** Waits for a shared promise, or stops waiting (CANCELLED) when this caller aborts. */
function abortable<T>(work: Promise<T>, signal: AbortSignal, context: OAuthFailureContext): Promise<T> {
  if (signal.aborted) return Promise.reject(new EnvelopeError(cancelledEnvelope({ provider: context.plugin ?? 'oauth', operation: context.operation ?? 'oauth.token' })));
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(new EnvelopeError(cancelledEnvelope({ provider: context.plugin ?? 'oauth', operation: context.operation ?? 'oauth.token' })));
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
