import { KeychainToken, TaintToken, type Keychain } from '@nodwyn/plugin-api';
import { exchangeCode, keychainTokenStore, oauthSession, type OAuthFlow } from '@nodwyn/plugin-api/transport';
import { redactL2Plugin } from '@nodwyn/plugin-redact-l2';
import { startTestKernel, testPlugin, type TestKernel } from '@nodwyn/testing';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keychainPlugin } from '../src/index.js';
import { envelopeOf } from './envelope-of.js';

let t: TestKernel | undefined;
let server: Server | undefined;
let answers: { status: number; body: unknown }[] = [];
beforeEach(() => {
  vi.stubEnv('NODWYN_KEYCHAIN_PASSPHRASE', '');
  vi.stubEnv('NODWYN_KEYCHAIN_KEY_FILE', '');
});
afterEach(async () => {
  await t?.stop();
  t = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  vi.unstubAllEnvs();
});

/** A token endpoint on loopback that gives the queued answers in order. */
async function tokenEndpoint(): Promise<OAuthFlow> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = answers.shift() ?? { status: 500, body: {} };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { authorizationUrl: `${url}/authorize`, tokenUrl: `${url}/token`, scopes: ['read'] };
}

async function keychainService(): Promise<Keychain> {
  const got: { keychain?: Keychain } = {};
  const user = testPlugin('oauth-user', [], (ctx) => void (got.keychain = ctx.services.get(KeychainToken)), { requires: ['service:keychain'], permissions: ['secrets.reveal'] });
  t = await startTestKernel({ plugins: [keychainPlugin, redactL2Plugin, user] });
  return got.keychain!;
}

const ACCESS = 'oauth-access-value-5d2e81';
const REFRESH = 'oauth-refresh-value-a0c4f7';

describe('OAuth2 tokens in the keychain (keychainTokenStore)', () => {
  it('keeps the tokens as sealed secrets, hands out the handle, teaches L2, and a refused refresh deletes them', async () => {
    const flow = await tokenEndpoint();
    const keychain = await keychainService();
    const store = keychainTokenStore(keychain, 'acme', 'oauth-token');
    answers = [{ status: 200, body: { access_token: ACCESS, refresh_token: REFRESH, token_type: 'bearer', expires_in: 10, scope: 'read' } }];
    const meta = await exchangeCode(flow, { clientId: 'nodwyn' }, { code: 'c0de', verifier: 'v'.repeat(43), redirectUri: 'http://127.0.0.1:1/cb' }, store, fetch, { now: () => 1_000_000 });
    expect(meta).toEqual({ expiresAt: 1_010_000, scope: 'read', refreshable: true });
    expect((await keychain.list()).map((s) => `${s.name} ${s.class}`)).toEqual(['acme.access oauth-token', 'acme.meta oauth-token-meta', 'acme.refresh oauth-token']);
    const file = readFileSync(join(t!.dataDir, 'keychain.json'));
    expect([file.includes(Buffer.from(ACCESS)), file.includes(Buffer.from(REFRESH))]).toEqual([false, false]);
    expect(await store.get()).toEqual({ accessToken: ACCESS, refreshToken: REFRESH, expiresAt: 1_010_000, scope: 'read' });
    expect(t!.host.service(TaintToken)?.matches('any-session', `leak ${ACCESS}`)).toEqual(['oauth-token']);

    const session = oauthSession(flow, { clientId: 'nodwyn' }, store, fetch, { now: () => 1_000_000 });
    answers = [{ status: 200, body: { access_token: 'oauth-access-second-77aa', token_type: 'bearer', expires_in: 3600 } }];
    expect(await session.accessToken(new AbortController().signal)).toBe('{{secret:acme.access}}');
    expect(await store.get()).toMatchObject({ accessToken: 'oauth-access-second-77aa', refreshToken: REFRESH, expiresAt: 4_600_000 });

    answers = [{ status: 400, body: { error: 'invalid_grant', error_description: `revoked ${REFRESH}` } }];
    const env = await envelopeOf(session.refresh(new AbortController().signal), [ACCESS, REFRESH, 'oauth-access-second-77aa']);
    expect(env).toMatchObject({ category: 'AUTH_FAILED', code: 'OAUTH_GRANT_REFUSED' });
    expect(await keychain.list()).toEqual([]);
    expect(await envelopeOf(session.accessToken(new AbortController().signal))).toMatchObject({ code: 'OAUTH_NOT_AUTHORIZED' });
  });
});
