import * as oauth from 'oauth4webapi';
import { EnvelopeError } from '../envelope.js';
import { transportEnvelope } from './codes.js';
import { checkOAuthUrl, notAuthorizedEnvelope, tokenFailureEnvelope, type OAuthFailureContext } from './oauth-failure.js';
import { encodeRfc3986 } from './operation-request.js';
import type { OAuthClient, OAuthFetch, OAuthFlow, OAuthTokens, OAuthTokenStore, TokenMetadata } from './oauth-types.js';

/** What a token request may be told besides its grant. */
export interface TokenRequestOptions extends OAuthFailureContext {
  readonly signal?: AbortSignal;
  /** For tests: the clock that turns expires_in into expiresAt. */
  readonly now?: () => number;
}

const RESERVED = new Set(['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method']);

/**
 * The URL to send the person to (RFC 6749 §4.1.1 with PKCE): response_type=code, client_id, redirect_uri,
 * scope (space separated; the flow's scopes by default), state, code_challenge and
 * code_challenge_method=S256, then `extra` in key order, never overriding those.
 */
export function authorizationUrl(
  flow: OAuthFlow,
  client: OAuthClient,
  request: { readonly state: string; readonly challenge: string; readonly scopes?: readonly string[]; readonly extra?: Readonly<Record<string, string>> },
): string {
  const url = checkOAuthUrl(flow.authorizationUrl, 'authorizationUrl');
  const scopes = request.scopes ?? flow.scopes;
  const pairs: [string, string][] = [
    ['response_type', 'code'],
    ['client_id', client.clientId],
    ...(client.redirectUri === undefined ? [] : [['redirect_uri', client.redirectUri] as [string, string]]),
    ...(scopes.length === 0 ? [] : [['scope', scopes.join(' ')] as [string, string]]),
    ['state', request.state],
    ['code_challenge', request.challenge],
    ['code_challenge_method', 'S256'],
  ];
  const present = new Set([...url.searchParams.keys()]);
  for (const key of Object.keys(request.extra ?? {}).sort()) {
    if (!RESERVED.has(key) && !present.has(key)) pairs.push([key, request.extra![key]!]);
  }
  const query = pairs.map(([key, value]) => `${encodeRfc3986(key)}=${encodeRfc3986(value)}`).join('&');
  return `${url.origin}${url.pathname}${url.search === '' ? '?' : `${url.search}&`}${query}`;
}

/**
 * Exchanges an authorization code (grant_type=authorization_code with the PKCE verifier) for tokens,
 * stores them and returns what may be shown. A failure is an EnvelopeError that never repeats the code,
 * the verifier, the secret or the endpoint's text.
 */
export async function exchangeCode(
  flow: OAuthFlow,
  client: OAuthClient,
  grant: { readonly code: string; readonly verifier: string; readonly redirectUri?: string },
  store: OAuthTokenStore,
  fetch: OAuthFetch,
  options: TokenRequestOptions = {},
): Promise<TokenMetadata> {
  const endpoint = tokenEndpoint(flow.tokenUrl, client, fetch, options);
  const redirectUri = grant.redirectUri ?? client.redirectUri ?? missingRedirectUri(options);
  const tokens = await endpoint.run('authorization_code', async () => {
    const callback = oauth.validateAuthResponse(endpoint.as, endpoint.client, new URLSearchParams({ code: grant.code }), oauth.skipStateCheck);
    const response = await oauth.authorizationCodeGrantRequest(endpoint.as, endpoint.client, endpoint.auth, callback, redirectUri, grant.verifier, endpoint.options);
    return oauth.processAuthorizationCodeResponse(endpoint.as, endpoint.client, response);
  });
  const stored = tokensOf(tokens, undefined, options.now ?? Date.now);
  await store.set(stored);
  return metadataOf(stored);
}

/**
 * Refreshes the stored tokens (grant_type=refresh_token, to refreshUrl or else tokenUrl) and stores the
 * answer, keeping the old refresh token when the answer has none. A 4xx answer deletes the stored tokens:
 * the refresh token is spent or revoked, and only the person can authorize again.
 */
export async function refreshTokens(flow: OAuthFlow, client: OAuthClient, store: OAuthTokenStore, fetch: OAuthFetch, options: TokenRequestOptions = {}): Promise<TokenMetadata> {
  const current = await store.get();
  if (current?.refreshToken === undefined) throw new EnvelopeError(notAuthorizedEnvelope(current === undefined ? 'none' : 'expired', options));
  const refreshToken = current.refreshToken;
  const endpoint = tokenEndpoint(flow.refreshUrl ?? flow.tokenUrl, client, fetch, options);
  const tokens = await endpoint
    .run('refresh_token', async () => {
      const response = await oauth.refreshTokenGrantRequest(endpoint.as, endpoint.client, endpoint.auth, refreshToken, endpoint.options);
      return oauth.processRefreshTokenResponse(endpoint.as, endpoint.client, response);
    })
    .catch(async (error: unknown) => {
      const status = error instanceof EnvelopeError ? error.envelope.http_status : null;
      if (status !== null && status >= 400 && status < 500) await store.delete();
      throw error;
    });
  const stored = tokensOf(tokens, refreshToken, options.now ?? Date.now);
  await store.set(stored);
  return metadataOf(stored);
}

// The token request repeats the redirect URI of the authorization request (RFC 6749 §4.1.3).
function missingRedirectUri(context: TokenRequestOptions): never {
  throw new EnvelopeError(
    transportEnvelope('OAUTH_URL_INVALID', {
      operation: context.operation ?? 'oauth.token',
      plugin: context.plugin,
      failed_parameter: 'redirectUri',
      expected: 'the redirect URI the authorization request named',
      remediation: 'Pass the redirect URI the person was sent back to (the client\'s redirectUri or the exchange\'s), so the token endpoint can match it.',
    }),
  );
}

/** What may be shown of stored tokens. */
export function metadataOf(tokens: OAuthTokens): TokenMetadata {
  return { ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }), ...(tokens.scope === undefined ? {} : { scope: tokens.scope }), refreshable: tokens.refreshToken !== undefined };
}

function tokensOf(response: oauth.TokenEndpointResponse, previousRefresh: string | undefined, now: () => number): OAuthTokens {
  const refreshToken = response.refresh_token ?? previousRefresh;
  return {
    accessToken: response.access_token,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(typeof response.expires_in === 'number' ? { expiresAt: now() + response.expires_in * 1000 } : {}),
    ...(typeof response.scope === 'string' ? { scope: response.scope } : {}),
  };
}

/**
 * One token endpoint as oauth4webapi wants it: the server, the client, its authentication (HTTP Basic
 * for a confidential client, client_id in the form for a public one), and the caller's fetch. Plain http
 * passes oauth4webapi's https check only for a loopback URL, which `checkOAuthUrl` already ensured.
 */
function tokenEndpoint(raw: string, client: OAuthClient, fetch: OAuthFetch, options: TokenRequestOptions) {
  const url = checkOAuthUrl(raw, 'tokenUrl', options);
  let sent = false;
  let status: number | undefined;
  const counting: OAuthFetch = async (target, init) => {
    sent = true;
    const response = await fetch(target, init);
    status = response.status;
    return response;
  };
  const requestOptions = {
    [oauth.customFetch]: counting,
    [oauth.allowInsecureRequests]: url.protocol === 'http:',
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  return {
    as: { issuer: url.origin, token_endpoint: url.href } satisfies oauth.AuthorizationServer,
    client: { client_id: client.clientId } satisfies oauth.Client,
    auth: client.clientSecret === undefined ? oauth.None() : oauth.ClientSecretBasic(client.clientSecret),
    options: requestOptions,
    async run<T>(grant: 'authorization_code' | 'refresh_token', work: () => Promise<T>): Promise<T> {
      try {
        return await work();
      } catch (error) {
        // Before anything was sent the error is a bad argument (a bug of the caller), not the endpoint's.
        if (!sent) throw error;
        throw new EnvelopeError(tokenFailureEnvelope(error, status, grant, options));
      }
    },
  };
}
