import { EnvelopeSchema, type Envelope } from '@nodwyn/protocol';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { testServer, type TestServer } from '../../test/loopback-server.js';
import { isEnvelopeError } from '../envelope.js';
import { oauthAuthProvider } from './oauth-auth-provider.js';
import { createOperationClient } from './operation-client.js';
import { directOperationFetch } from './operation-fetch.js';
import type { AuthProvider } from './operation-types.js';
import { oauthSession } from './oauth-session.js';
import { authorizationUrl, exchangeCode, refreshTokens } from './oauth-token.js';
import { memoryTokenStore, type OAuthClient, type OAuthFlow, type OAuthTokens } from './oauth-types.js';
import { pkce, pkceChallenge } from './pkce.js';

const SECRET = 'cl!ent s3cret:with/odd+chars';
const CODE = 'auth-code-7f3a91';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const ACCESS = 'at-initial-2b9c';
const REFRESH = 'rt-initial-88d1';
const NEVER_SHOWN = [SECRET, CODE, VERIFIER, ACCESS, REFRESH, 'at-new-', 'rt-new-', 'the refresh token rt-'];
const confidential: OAuthClient = { clientId: 'nodwyn:cli', clientSecret: SECRET, redirectUri: 'http://127.0.0.1:8976/callback' };
const publicClient: OAuthClient = { clientId: 'nodwyn-public', redirectUri: 'http://127.0.0.1:8976/callback' };

let server: TestServer | undefined;
const envelopes: Envelope[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const env of envelopes.splice(0)) {
    expect(EnvelopeSchema.parse(env)).toEqual(env);
    for (const secret of NEVER_SHOWN) expect(JSON.stringify(env)).not.toContain(secret);
  }
});

const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));

/** A token endpoint that issues numbered tokens, or answers what `fail` says for a refresh. */
async function tokenServer(options: { fail?: { status: number; body: unknown }; omitRefresh?: boolean; delayMs?: number } = {}) {
  let issued = 0;
  server = await testServer((req, res, _n, body) => {
    const form = new URLSearchParams(body);
    if (req.url === '/api') {
      const ok = req.headers.authorization === `Bearer at-new-${issued}`;
      return ok ? json(res, 200, { ok: true }) : json(res, 401, { error: 'invalid_token' });
    }
    if (form.get('grant_type') === 'refresh_token' && options.fail) return json(res, options.fail.status, options.fail.body);
    issued += 1;
    const answer = { access_token: `at-new-${issued}`, token_type: 'Bearer', expires_in: 3600, scope: 'read', ...(options.omitRefresh ? {} : { refresh_token: `rt-new-${issued}` }) };
    setTimeout(() => json(res, 200, answer), options.delayMs ?? 0);
  });
  const url = server.url;
  const flow: OAuthFlow = { authorizationUrl: `${url}/authorize`, tokenUrl: `${url}/token`, refreshUrl: `${url}/refresh`, scopes: ['read'] };
  return { flow, url };
}

async function envelopeOf(promise: Promise<unknown>): Promise<Envelope> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isEnvelopeError(error)) throw new Error(`expected an envelope, got ${String(error)}`);
  envelopes.push(error.envelope);
  return error.envelope;
}

const signal = () => new AbortController().signal;

describe('PKCE', () => {
  it('computes the RFC 7636 Appendix B challenge', async () => {
    expect(await pkceChallenge(VERIFIER)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes a 43-character URL-safe verifier from 32 random bytes, with its S256 challenge', async () => {
    const first = await pkce();
    const second = await pkce();
    expect(first.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.challenge).toBe(await pkceChallenge(first.verifier));
    expect(first.verifier).not.toBe(second.verifier);
  });
});

describe('authorizationUrl', () => {
  it('puts the protocol parameters first, then extras in key order, never overriding them, RFC 3986 encoded', () => {
    const flow: OAuthFlow = { authorizationUrl: 'https://auth.example.test/authorize?audience=pets', tokenUrl: 'https://auth.example.test/token', scopes: ['read:pets', 'write pets'] };
    const url = authorizationUrl(flow, confidential, { state: 's/1 2', challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', extra: { zeta: "it's (ok)*", state: 'evil', audience: 'other', prompt: 'consent', code_challenge_method: 'plain' } });
    expect(url).toBe(
      'https://auth.example.test/authorize?audience=pets&response_type=code&client_id=nodwyn%3Acli&redirect_uri=http%3A%2F%2F127.0.0.1%3A8976%2Fcallback' +
        '&scope=read%3Apets%20write%20pets&state=s%2F1%202&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256' +
        '&prompt=consent&zeta=it%27s%20%28ok%29%2A',
    );
    expect(authorizationUrl(flow, publicClient, { state: 'x', challenge: 'c', scopes: [] })).not.toContain('scope=');
  });

  it('refuses plain http to a host that is not loopback', async () => {
    const flow: OAuthFlow = { authorizationUrl: 'http://auth.example.test/authorize', tokenUrl: 'https://auth.example.test/token', scopes: [] };
    const env = await envelopeOf(Promise.resolve().then(() => authorizationUrl(flow, publicClient, { state: 'x', challenge: 'c' })));
    expect(env).toMatchObject({ category: 'VALIDATION_FAILED', code: 'OAUTH_URL_INVALID', failed_parameter: 'authorizationUrl' });
  });
});

describe('exchangeCode and refreshTokens against a loopback token endpoint', () => {
  it('authenticates a confidential client with HTTP Basic (percent-encoded), stores the tokens, returns metadata only', async () => {
    const { flow } = await tokenServer();
    const store = memoryTokenStore();
    const meta = await exchangeCode(flow, confidential, { code: CODE, verifier: VERIFIER }, store, fetch, { now: () => 1_000 });
    expect(meta).toEqual({ expiresAt: 3_601_000, scope: 'read', refreshable: true });
    expect(await store.get()).toEqual({ accessToken: 'at-new-1', refreshToken: 'rt-new-1', expiresAt: 3_601_000, scope: 'read' });
    const request = server!.requests[0]!;
    expect(request.url).toBe('/token');
    const [user, password] = Buffer.from(String(request.headers.authorization).replace(/^Basic /, ''), 'base64').toString('utf8').split(':');
    expect([decodeURIComponent(user!.replace(/\+/g, ' ')), decodeURIComponent(password!.replace(/\+/g, ' '))]).toEqual([confidential.clientId, SECRET]);
    const form = Object.fromEntries(new URLSearchParams(request.body));
    expect(form).toEqual({ grant_type: 'authorization_code', code: CODE, redirect_uri: confidential.redirectUri, code_verifier: VERIFIER });
  });

  it('sends client_id in the form for a public client, without an Authorization header', async () => {
    const { flow } = await tokenServer();
    await exchangeCode(flow, publicClient, { code: CODE, verifier: VERIFIER, redirectUri: 'http://127.0.0.1:1/cb' }, memoryTokenStore(), fetch);
    const request = server!.requests[0]!;
    expect(request.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(request.body))).toMatchObject({ client_id: 'nodwyn-public', redirect_uri: 'http://127.0.0.1:1/cb', code_verifier: VERIFIER });
  });

  it('needs the redirect URI of the authorization request, and sends nothing without it', async () => {
    const { flow } = await tokenServer();
    const env = await envelopeOf(exchangeCode(flow, { clientId: 'nodwyn-public' }, { code: CODE, verifier: VERIFIER }, memoryTokenStore(), fetch));
    expect(env).toMatchObject({ category: 'VALIDATION_FAILED', code: 'OAUTH_URL_INVALID', failed_parameter: 'redirectUri' });
    expect(server!.requests).toHaveLength(0);
  });

  it('refreshes at refreshUrl and keeps the old refresh token when the answer has none', async () => {
    const { flow } = await tokenServer({ omitRefresh: true });
    const store = memoryTokenStore({ accessToken: ACCESS, refreshToken: REFRESH });
    expect(await refreshTokens(flow, publicClient, store, fetch)).toMatchObject({ refreshable: true });
    expect(await store.get()).toMatchObject({ accessToken: 'at-new-1', refreshToken: REFRESH });
    expect(server!.requests[0]!.url).toBe('/refresh');
    expect(Object.fromEntries(new URLSearchParams(server!.requests[0]!.body))).toEqual({ grant_type: 'refresh_token', refresh_token: REFRESH, client_id: 'nodwyn-public' });
  });

  it('deletes the stored tokens when the endpoint answers a refresh with 4xx, repeating only the error code', async () => {
    const { flow } = await tokenServer({ fail: { status: 400, body: { error: 'invalid_grant', error_description: `the refresh token ${REFRESH} was revoked` } } });
    const store = memoryTokenStore({ accessToken: ACCESS, refreshToken: REFRESH });
    const env = await envelopeOf(refreshTokens(flow, confidential, store, fetch));
    expect(env).toMatchObject({ category: 'AUTH_FAILED', code: 'OAUTH_GRANT_REFUSED', http_status: 400, received_value: 'invalid_grant' });
    expect(await store.get()).toBeUndefined();
  });

  it('keeps the tokens when the endpoint fails with 5xx or answers something that is not a token response', async () => {
    const { flow } = await tokenServer({ fail: { status: 503, body: { error: 'temporarily_unavailable' } } });
    const store = memoryTokenStore({ accessToken: ACCESS, refreshToken: REFRESH });
    expect(await envelopeOf(refreshTokens(flow, confidential, store, fetch))).toMatchObject({ category: 'UPSTREAM_UNAVAILABLE', code: 'OAUTH_TOKEN_ENDPOINT_FAILED', http_status: 503 });
    await server!.close();
    server = await testServer((_req, res) => json(res, 200, { token_type: 'Bearer' }));
    const broken = { ...flow, tokenUrl: `${server.url}/token`, refreshUrl: undefined };
    expect(await envelopeOf(refreshTokens(broken, confidential, store, fetch))).toMatchObject({ category: 'UNEXPECTED_RESPONSE', code: 'OAUTH_TOKEN_RESPONSE_INVALID' });
    expect(await store.get()).toEqual({ accessToken: ACCESS, refreshToken: REFRESH });
  });
});

describe('oauthSession', () => {
  const expiring = (extra: Partial<OAuthTokens> = {}): OAuthTokens => ({ accessToken: ACCESS, refreshToken: REFRESH, expiresAt: 1_000_000 + 10_000, ...extra });

  it('fails with AUTH_FAILED before sending anything when no token is stored, or an expiring one cannot be refreshed', async () => {
    const { flow } = await tokenServer();
    const none = oauthSession(flow, confidential, memoryTokenStore(), fetch);
    expect(await envelopeOf(none.accessToken(signal()))).toMatchObject({ category: 'AUTH_FAILED', code: 'OAUTH_NOT_AUTHORIZED' });
    const stale = oauthSession(flow, confidential, memoryTokenStore(expiring({ refreshToken: undefined })), fetch, { now: () => 1_000_000 });
    expect((await envelopeOf(stale.accessToken(signal()))).remediation).toContain('authorize nodwyn with the API again');
    expect(server!.requests).toHaveLength(0);
  });

  it('refreshes a token that expires within 30 s once for 10 concurrent callers', async () => {
    const { flow } = await tokenServer({ delayMs: 50 });
    const session = oauthSession(flow, confidential, memoryTokenStore(expiring()), fetch, { now: () => 1_000_000 });
    const tokens = await Promise.all(Array.from({ length: 10 }, () => session.accessToken(signal())));
    expect(new Set(tokens)).toEqual(new Set(['at-new-1']));
    expect(server!.requests).toHaveLength(1);
  });

  it('uses a token with more than 30 s left as it is', async () => {
    const { flow } = await tokenServer();
    const session = oauthSession(flow, confidential, memoryTokenStore(expiring({ expiresAt: 1_000_000 + 31_000 })), fetch, { now: () => 1_000_000 });
    expect(await session.accessToken(signal())).toBe(ACCESS);
    expect(server!.requests).toHaveLength(0);
  });

  it('hands out the store handle instead of the token when the store has one', async () => {
    const { flow } = await tokenServer();
    const store = { ...memoryTokenStore({ accessToken: ACCESS }), accessHandle: '{{secret:acme.access}}' };
    expect(await oauthSession(flow, confidential, store, fetch).accessToken(signal())).toBe('{{secret:acme.access}}');
  });
});

/** One read through the operation runtime (part A), with `auth`; the envelope of a failure is kept for the checks. */
async function call(url: string, auth: AuthProvider): Promise<unknown> {
  const client = createOperationClient({ operations: [{ id: 'acme.listPets', method: 'GET', url: `${url}/api`, params: [], tier: 'read' }], fetch: directOperationFetch, auth });
  const result = await client.call('acme.listPets', {});
  if (result.ok) return { ok: true };
  envelopes.push(result.envelope);
  return result.envelope;
}

describe('oauthAuthProvider', () => {
  it('sends the bearer token; a 401 refreshes once and the request is resent once', async () => {
    const { flow, url } = await tokenServer();
    const session = oauthSession(flow, confidential, memoryTokenStore({ accessToken: ACCESS, refreshToken: REFRESH }), fetch);
    expect(await call(url, oauthAuthProvider(session))).toEqual({ ok: true });
    const paths = server!.requests.map((r) => `${r.headers.authorization?.startsWith('Bearer') ? r.headers.authorization : 'token request'}`);
    expect(paths).toEqual([`Bearer ${ACCESS}`, 'token request', 'Bearer at-new-1']);
  });

  it('a second 401 is the envelope, after exactly one refresh', async () => {
    const { flow, url } = await tokenServer();
    const session = oauthSession(flow, confidential, memoryTokenStore({ accessToken: ACCESS, refreshToken: REFRESH }), fetch);
    const refusing = { ...oauthAuthProvider(session), headers: async () => [['Authorization', `Bearer ${ACCESS}`]] as const };
    expect(await call(url, refusing)).toMatchObject({ category: 'AUTH_FAILED', http_status: 401, trace: { attempts: 2 } });
    expect(server!.requests).toHaveLength(3);
  });

  it('shows the store handle in describe, and answers false (the 401 stands) when the refresh is refused', async () => {
    const { flow, url } = await tokenServer({ fail: { status: 400, body: { error: 'invalid_grant' } } });
    const store = { ...memoryTokenStore({ accessToken: ACCESS, refreshToken: REFRESH }), accessHandle: '{{secret:acme.access}}' };
    const provider = oauthAuthProvider(oauthSession(flow, confidential, store, fetch));
    expect(provider.describe?.({ id: 'acme.listPets', method: 'GET', url: `${url}/api`, params: [], tier: 'read' })).toEqual([['Authorization', 'Bearer {{secret:acme.access}}']]);
    expect(await provider.unauthorized?.({ id: 'acme.listPets', method: 'GET', url: `${url}/api`, params: [], tier: 'read' }, signal())).toBe(false);
    expect(await store.get()).toBeUndefined();
  });

  it('does not refresh again when the refused token was already replaced', async () => {
    const { flow } = await tokenServer();
    const store = memoryTokenStore({ accessToken: ACCESS, refreshToken: REFRESH });
    const session = oauthSession(flow, confidential, store, fetch);
    await session.accessToken(signal());
    await store.set({ accessToken: 'at-new-other', refreshToken: REFRESH });
    expect(await session.refresh(signal())).toBe(true);
    expect(server!.requests).toHaveLength(0);
    expect(await session.refresh(signal(), 'at-new-other')).toBe(true);
    expect(server!.requests).toHaveLength(1);
  });
});
