import type { Envelope } from '@nodwyn/protocol';
import { ResponseBodyError, WWWAuthenticateChallengeError } from 'oauth4webapi';
import { EnvelopeError } from '../envelope.js';
import { isLoopback } from './base-url.js';
import { transportEnvelope } from './codes.js';
import { isAbortError } from './network-failure.js';

/** What an OAuth envelope names. */
export interface OAuthFailureContext {
  readonly operation?: string;
  readonly plugin?: string;
}

const OPERATION = 'oauth.token';

/** The URL as an envelope may show it: no user info, query or fragment. */
function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * Parses an authorization or token URL: https, or plain http to a loopback host (a local test server).
 * Anything else is OAUTH_URL_INVALID before a request is made, since a code or token sent over plain
 * http could be read on the way.
 */
export function checkOAuthUrl(raw: string, parameter: string, context: OAuthFailureContext = {}): URL {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  const ok = url !== undefined && url.username === '' && url.password === '' && (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname)));
  if (url === undefined || !ok) {
    throw new EnvelopeError(
      transportEnvelope('OAUTH_URL_INVALID', {
        operation: context.operation ?? OPERATION,
        plugin: context.plugin,
        failed_parameter: parameter,
        received_value: url === undefined ? 'not a URL' : shown(url),
        expected: 'an https URL (plain http only to a loopback host)',
        remediation: `The OAuth2 ${parameter} must be an https URL without credentials; plain http is allowed only to 127.0.0.1, ::1 or localhost. Fix it in the API description.`,
      }),
    );
  }
  return url;
}

/** The error code a token endpoint answered, when it is a plain OAuth error code (never its description). */
function errorCode(value: unknown): string | undefined {
  return typeof value === 'string' && /^[\w.-]{1,64}$/.test(value) ? value : undefined;
}

/** The envelope when no token is stored, or an expiring one has no refresh token. */
export function notAuthorizedEnvelope(reason: 'none' | 'expired', context: OAuthFailureContext): Envelope {
  return transportEnvelope('OAUTH_NOT_AUTHORIZED', {
    operation: context.operation,
    plugin: context.plugin,
    remediation:
      reason === 'none'
        ? 'No OAuth2 token is stored for this API, so nothing was sent. Ask the person to authorize nodwyn with the API (authorization code flow), then try again.'
        : 'The OAuth2 access token has expired and there is no refresh token, so nothing was sent. Ask the person to authorize nodwyn with the API again, then try again.',
  });
}

/**
 * The envelope of a failed token request. The endpoint's own text is never repeated (it can echo a
 * code or a token): only an error code such as invalid_grant and the HTTP status.
 */
export function tokenFailureEnvelope(error: unknown, status: number | undefined, grant: 'authorization_code' | 'refresh_token', context: OAuthFailureContext): Envelope {
  const base = { operation: context.operation ?? OPERATION, plugin: context.plugin, http_status: status };
  const code = error instanceof ResponseBodyError ? errorCode(error.error) : error instanceof WWWAuthenticateChallengeError ? 'invalid_client' : undefined;
  if (status === undefined || isAbortError(error)) {
    return transportEnvelope('OAUTH_TOKEN_ENDPOINT_FAILED', { ...base, remediation: 'The OAuth2 token endpoint could not be reached. Check the network and the token URL, then try again.' });
  }
  if (status >= 500) {
    return transportEnvelope('OAUTH_TOKEN_ENDPOINT_FAILED', { ...base, remediation: `The OAuth2 token endpoint failed (HTTP ${status}). Wait a little, then try again.` });
  }
  if (status >= 400) {
    const what = grant === 'refresh_token' ? 'refresh token' : 'authorization code';
    const after = grant === 'refresh_token' ? ' The stored tokens were deleted.' : '';
    return transportEnvelope('OAUTH_GRANT_REFUSED', {
      ...base,
      received_value: code,
      remediation: `The OAuth2 token endpoint refused the ${what} (HTTP ${status}${code === undefined ? '' : `, ${code}`}).${after} Ask the person to authorize nodwyn with the API again; check the client id and secret if it keeps failing.`,
    });
  }
  return transportEnvelope('OAUTH_TOKEN_RESPONSE_INVALID', {
    ...base,
    expected: 'an OAuth2 token response (JSON with access_token and token_type bearer)',
    remediation: `The OAuth2 token endpoint answered HTTP ${status} with something that is not a valid token response. Check the token URL in the API description.`,
  });
}
