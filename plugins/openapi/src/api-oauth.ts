import type { Keychain } from '@nodwyn/plugin-api';
import { keychainTokenStore, oauthAuthProvider, oauthSession, type AuthProvider, type OAuthClient, type OAuthFlow } from '@nodwyn/plugin-api/transport';
import type { ApiEntry } from './api-config.js';
import { openApiError, PLUGIN_NAME } from './errors.js';
import { deref, isObject, securitySchemes, type JsonObject } from './schema-refs.js';

/** What `nodwyn openapi login` recorded for an API: its oauth2 scheme and the registered client. */
export type ApiOAuth = NonNullable<ApiEntry['oauth']>;

/** The document's oauth2 schemes that have an authorization code flow, by name. */
export function oauthSchemes(document: JsonObject): Map<string, OAuthFlow> {
  const flows = new Map<string, OAuthFlow>();
  for (const [name, raw] of Object.entries(securitySchemes(document))) {
    const scheme = deref(document, raw);
    if (!isObject(scheme) || scheme.type !== 'oauth2' || !isObject(scheme.flows)) continue;
    const code = scheme.flows.authorizationCode;
    if (!isObject(code) || typeof code.authorizationUrl !== 'string' || typeof code.tokenUrl !== 'string') continue;
    flows.set(name, {
      authorizationUrl: code.authorizationUrl,
      tokenUrl: code.tokenUrl,
      ...(typeof code.refreshUrl === 'string' ? { refreshUrl: code.refreshUrl } : {}),
      scopes: isObject(code.scopes) ? Object.keys(code.scopes) : [],
    });
  }
  return flows;
}

/** The flow of `scheme` (the only oauth2 scheme when not named), or OPENAPI_OAUTH_SCHEME_MISSING. */
export function oauthFlowOf(api: string, document: JsonObject, scheme?: string): { readonly scheme: string; readonly flow: OAuthFlow } {
  const flows = oauthSchemes(document);
  const name = scheme ?? (flows.size === 1 ? [...flows.keys()][0] : undefined);
  const flow = name === undefined ? undefined : flows.get(name);
  if (name === undefined || flow === undefined) {
    throw openApiError('OPENAPI_OAUTH_SCHEME_MISSING', {
      operation: 'openapi.login',
      failed_parameter: '--scheme',
      ...(scheme === undefined ? {} : { received_value: scheme }),
      expected: [...flows.keys()].join(', ') || 'an oauth2 security scheme with an authorizationCode flow',
      remediation:
        flows.size === 0
          ? `API ${api}'s document has no oauth2 security scheme with an authorization code flow.`
          : `Name one of API ${api}'s oauth2 schemes with --scheme: ${[...flows.keys()].join(', ')}.`,
    });
  }
  return { scheme: name, flow };
}

/** The keychain names of an API's tokens (`openapi.<api>.access`, `.refresh`, `.meta`) and their class. */
export function tokenStoreOf(api: string): { readonly name: string; readonly cls: string } {
  return { name: `openapi.${api}`, cls: `oauth-${api.replaceAll('_', '-')}` };
}

/** The registered client, its secret revealed from the keychain only when a token request needs it. */
export async function oauthClient(oauth: ApiOAuth, keychain: Keychain, redirectUri?: string): Promise<OAuthClient> {
  const secret = oauth.client_secret === undefined ? undefined : await keychain.reveal(oauth.client_secret.slice('secret:'.length));
  return { clientId: oauth.client_id, ...(secret === undefined ? {} : { clientSecret: secret }), ...(redirectUri === undefined ? {} : { redirectUri }) };
}

/**
 * The auth provider of an API's oauth2 scheme: requests carry the access token's keychain handle, which
 * the egress edge substitutes where the binding table binds the token's class (`oauth-<api>`) to the
 * host; a 401 refreshes once, shared by concurrent calls. The session is made on first use, since the
 * client secret comes from the keychain.
 */
export function apiOAuthProvider(api: string, document: JsonObject, oauth: ApiOAuth, keychain: () => Keychain | undefined): AuthProvider {
  const store = tokenStoreOf(api);
  let provider: Promise<AuthProvider> | undefined;
  const providerOf = (): Promise<AuthProvider> => {
    const chain = keychain();
    if (!chain) {
      throw openApiError('OPENAPI_KEYCHAIN_MISSING', {
        operation: 'openapi.call',
        remediation: `API ${api} authorizes with OAuth2, whose tokens live in the keychain, but no keychain plugin is loaded. Enable it.`,
      });
    }
    const { flow } = oauthFlowOf(api, document, oauth.scheme);
    if (provider === undefined) {
      const made = oauthClient(oauth, chain).then((client) =>
        oauthAuthProvider(oauthSession(flow, client, keychainTokenStore(chain, store.name, store.cls), (url, init) => fetch(url, init), { operation: 'openapi.call', plugin: PLUGIN_NAME })),
      );
      // A client secret the keychain could not reveal is asked for again by the next call.
      made.catch(() => (provider = undefined));
      provider = made;
    }
    return provider;
  };
  const handle = `{{secret:${store.name}.access}}`;
  return {
    headers: async (operation, signal) => (await providerOf()).headers(operation, signal),
    unauthorized: async (operation, signal) => (await (await providerOf()).unauthorized?.(operation, signal)) ?? false,
    describe: () => [['Authorization', `Bearer ${handle}`]],
  };
}
