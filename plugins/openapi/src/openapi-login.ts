import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { isAbsolute, join } from 'node:path';
import type { CommandIO, Keychain } from '@nodwyn/plugin-api';
import { authorizationUrl, exchangeCode, keychainTokenStore, pkce } from '@nodwyn/plugin-api/transport';
import { readRegistry, writeRegistry, type ApiEntry } from './api-config.js';
import { loadApi, type LoadedApi } from './api-load.js';
import { oauthClient, oauthFlowOf, tokenStoreOf, type ApiOAuth } from './api-oauth.js';
import { openApiError, PLUGIN_NAME } from './errors.js';

/** How long `login` waits for the person to authorize, by default. */
const LOGIN_TIMEOUT_S = 300;

/** What `login` and `logout` read besides their arguments. */
export interface LoginDeps {
  readonly configDir: string;
  readonly keychain: () => Keychain | undefined;
}

type Options = Readonly<Record<string, unknown>>;

function registered(configDir: string, name: string, operation: string): ApiEntry {
  const entry = readRegistry(configDir)[name];
  if (!entry) {
    throw openApiError('OPENAPI_API_UNKNOWN', {
      operation,
      failed_parameter: 'NAME',
      received_value: name,
      remediation: 'Name an API that `nodwyn openapi list` shows; add it first with `nodwyn openapi add FILE --name NAME`.',
    });
  }
  return entry;
}

function keychainOf(deps: LoginDeps, operation: string): Keychain {
  const keychain = deps.keychain();
  if (!keychain) throw openApiError('OPENAPI_KEYCHAIN_MISSING', { operation, remediation: 'OAuth2 tokens are kept in the keychain, and no keychain plugin is loaded. Enable it.' });
  return keychain;
}

function loginFailed(remediation: string, extra: { readonly received_value?: string } = {}): Error {
  return openApiError('OPENAPI_LOGIN_FAILED', { operation: 'openapi.login', ...extra, remediation });
}

/** The answer page the browser shows after the redirect: plain text, nothing from the request echoed. */
function answer(res: import('node:http').ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end(`${text}\n`);
}

/**
 * Waits on the loopback redirect for the authorization response whose `state` matches: its code, or
 * the error the authorization server sent. A request with another state is refused and waited past
 * (someone else's redirect cannot log the person in); the wait ends after `timeoutMs`.
 */
function awaitCode(server: Server, state: string, timeoutMs: number): Promise<{ code: string; respond: (ok: boolean, text: string) => void }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(loginFailed(`No authorization arrived within ${Math.round(timeoutMs / 1000)} s. Run the command again and open the URL it prints (--timeout SECONDS waits longer).`)), timeoutMs);
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') return answer(res, 404, 'Not found.');
      if (url.searchParams.get('state') !== state) return answer(res, 400, 'This authorization response is not for the login nodwyn is waiting for.');
      clearTimeout(timer);
      const error = url.searchParams.get('error');
      const code = url.searchParams.get('code');
      if (error !== null || code === null) {
        answer(res, 400, 'nodwyn: the authorization was refused. You can close this tab.');
        const shown = error !== null && /^[\w.-]{1,64}$/.test(error) ? error : 'no code';
        reject(loginFailed('The authorization server refused the authorization (or sent no code). Check the client id, the scopes and the redirect URI registered for the client, then run the command again.', { received_value: shown }));
        return;
      }
      resolve({ code, respond: (ok, text) => answer(res, ok ? 200 : 502, text) });
    });
  });
}

function listen(port: number): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(loginFailed(`Cannot listen on 127.0.0.1:${port} for the redirect (${(error as NodeJS.ErrnoException).code ?? error.message}). Pick another --port.`)));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

function list(value: unknown): string[] | undefined {
  return typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
}

function hostOf(api: LoadedApi): string | undefined {
  const url = api.operations[0]?.descriptor.url;
  return url === undefined ? undefined : new URL(url.replace(/\{[^}]*\}/g, '_')).host;
}

/**
 * `nodwyn openapi login NAME`: the authorization code flow with PKCE on a loopback redirect. It prints the
 * authorization URL for the person to open, exchanges the code it receives, keeps the tokens in the
 * keychain (`openapi.<api>.access`/`.refresh`, class `oauth-<api>`) and records the scheme and client in
 * openapi.toml. The token reaches the API only where the person binds that class to its host.
 */
export async function login(deps: LoginDeps, name: string, options: Options, io: CommandIO): Promise<number> {
  const entry = registered(deps.configDir, name, 'openapi.login');
  const keychain = keychainOf(deps, 'openapi.login');
  const documentPath = entry.document === undefined ? undefined : isAbsolute(entry.document) ? entry.document : join(deps.configDir, entry.document);
  const api = await loadApi({ name, entry, document: documentPath ?? '' });
  const { scheme, flow } = oauthFlowOf(name, api.document, typeof options.scheme === 'string' ? options.scheme : entry.oauth?.scheme);
  const clientId = typeof options.clientId === 'string' ? options.clientId : entry.oauth?.client_id;
  if (clientId === undefined) throw openApiError('OPENAPI_USAGE', { operation: 'openapi.login', failed_parameter: '--client-id', remediation: 'Name the OAuth2 client registered for nodwyn: --client-id ID (and --client-secret secret:NAME for a confidential client).' });
  const clientSecret = typeof options.clientSecret === 'string' ? options.clientSecret : entry.oauth?.client_secret;
  if (clientSecret !== undefined && !/^secret:[A-Za-z0-9_.-]{1,64}$/.test(clientSecret)) {
    throw openApiError('OPENAPI_USAGE', { operation: 'openapi.login', failed_parameter: '--client-secret', expected: 'secret:NAME', remediation: 'Keep the client secret in the keychain (`nodwyn secret add NAME --class CLASS`) and pass --client-secret secret:NAME.' });
  }
  const oauth: ApiOAuth = { scheme, client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}), ...((list(options.scopes) ?? entry.oauth?.scopes) ? { scopes: list(options.scopes) ?? entry.oauth?.scopes } : {}) };
  const port = options.port === undefined ? 0 : Number(options.port);
  const timeoutS = options.timeout === undefined ? LOGIN_TIMEOUT_S : Number(options.timeout);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || !(timeoutS > 0)) throw openApiError('OPENAPI_USAGE', { operation: 'openapi.login', remediation: '--port takes 0–65535, --timeout a number of seconds above 0.' });
  const server = await listen(port);
  try {
    const address = server.address();
    const redirectUri = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/callback`;
    const client = await oauthClient(oauth, keychain, redirectUri);
    const { verifier, challenge } = await pkce();
    const state = randomBytes(16).toString('base64url');
    const url = authorizationUrl(flow, client, { state, challenge, ...(oauth.scopes ? { scopes: oauth.scopes } : {}) });
    if (options.json === true) io.write(`${JSON.stringify({ authorization_url: url, redirect_uri: redirectUri })}\n`);
    else io.write(`Open this URL in a browser to authorize nodwyn for ${name} (${scheme}):\n\n  ${url}\n\nWaiting for the authorization on ${redirectUri} …\n`);
    const { code, respond } = await awaitCode(server, state, timeoutS * 1000);
    const store = tokenStoreOf(name);
    let granted;
    try {
      granted = await exchangeCode(flow, client, { code, verifier, redirectUri }, keychainTokenStore(keychain, store.name, store.cls), (target, init) => fetch(target, init), { operation: 'openapi.login', plugin: PLUGIN_NAME });
    } catch (error) {
      respond(false, 'nodwyn: the code could not be exchanged for a token; see the terminal. You can close this tab.');
      throw error;
    }
    respond(true, 'nodwyn: authorized. You can close this tab.');
    writeRegistry(deps.configDir, { ...readRegistry(deps.configDir), [name]: { ...entry, oauth } });
    const host = hostOf(api);
    const bind = `nodwyn bind add ${store.cls} --host ${host ?? 'HOST'} --position header:Authorization`;
    if (options.json === true) {
      io.write(`${JSON.stringify({ api: name, scheme, secret: `${store.name}.access`, class: store.cls, refreshable: granted.refreshable, ...(granted.expiresAt === undefined ? {} : { expires_at: new Date(granted.expiresAt).toISOString() }), bind })}\n`);
    } else {
      io.write(`Authorized ${name}: the token is in the keychain as ${store.name}.access (class ${store.cls})${granted.refreshable ? ', refreshed when it expires' : ''}.\nLet it reach the API: ${bind}\n`);
    }
    return 0;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** `nodwyn openapi logout NAME`: removes the API's tokens from the keychain and forgets its OAuth client. */
export async function logout(deps: LoginDeps, name: string, options: Options, io: CommandIO): Promise<number> {
  const { oauth: _forgotten, ...entry } = registered(deps.configDir, name, 'openapi.logout');
  const keychain = keychainOf(deps, 'openapi.logout');
  const store = tokenStoreOf(name);
  await keychainTokenStore(keychain, store.name, store.cls).delete();
  writeRegistry(deps.configDir, { ...readRegistry(deps.configDir), [name]: entry });
  io.write(options.json === true ? `${JSON.stringify({ logged_out: name })}\n` : `Logged out of ${name}: its tokens are gone from the keychain.\n`);
  return 0;
}
