import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox } from './cli.js';

/** What the authorization server saw: codes issued, token requests by grant. */
interface AuthLog {
  challenges: Map<string, { challenge: string; redirect: string }>;
  grants: string[];
}

const ACCESS_1 = 'acme-access-one-4f1c9a';
const ACCESS_2 = 'acme-access-two-8b2d7e';
const REFRESH = 'acme-refresh-77aa01';

let box: CliSandbox;
let auth: Server;
let authUrl: string;
let authLog: AuthLog;
let mock: ChildProcess;
let mockUrl: string;

/** An OAuth2 authorization server on loopback: /authorize redirects at once, /token checks PKCE S256. */
async function startAuthServer(): Promise<void> {
  authLog = { challenges: new Map(), grants: [] };
  let issued = 0;
  auth = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/authorize') {
      const code = `code-${++issued}`;
      authLog.challenges.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', redirect: url.searchParams.get('redirect_uri') ?? '' });
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const grant = form.get('grant_type') ?? '';
      authLog.grants.push(grant);
      const send = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (grant === 'authorization_code') {
        const issuedFor = authLog.challenges.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!issuedFor || issuedFor.challenge !== challenge || issuedFor.redirect !== form.get('redirect_uri')) return send(400, { error: 'invalid_grant' });
        return send(200, { access_token: ACCESS_1, refresh_token: REFRESH, token_type: 'Bearer', expires_in: 3600 });
      }
      if (grant === 'refresh_token' && form.get('refresh_token') === REFRESH) return send(200, { access_token: ACCESS_2, token_type: 'Bearer', expires_in: 3600 });
      return send(400, { error: 'invalid_grant' });
    });
  });
  await new Promise<void>((resolve) => auth.listen(0, '127.0.0.1', resolve));
  authUrl = `http://127.0.0.1:${(auth.address() as AddressInfo).port}`;
}

function documentFile(): string {
  const document = {
    openapi: '3.0.3',
    info: { title: 'Acme', version: '1' },
    servers: [{ url: 'http://127.0.0.1:1' }],
    components: { securitySchemes: { acmeAuth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: `${authUrl}/authorize`, tokenUrl: `${authUrl}/token`, scopes: { read: 'Read items' } } } } } },
    security: [{ acmeAuth: ['read'] }],
    paths: {
      '/items/{id}': {
        get: {
          operationId: 'getItem',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'the item', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } } },
        },
      },
    },
  };
  return box.write('acme.json', JSON.stringify(document));
}

async function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} printed no line: ${out}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.split('\n')[0]!);
      }
    });
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function seen(): Promise<{ operation?: string; authorization?: string }[]> {
  return (await (await fetch(`${mockUrl}/__mock/requests`)).json()) as { operation?: string; authorization?: string }[];
}

function call(tool: string, args: unknown) {
  const script = box.script([{ toolCalls: [{ name: tool, args }] }, { text: 'done' }]);
  return box.runAsync(['run', 'use acme', '--provider', 'scripted', '--script', script, '--json']);
}

beforeEach(async () => {
  box = new CliSandbox();
  await startAuthServer();
  const file = documentFile();
  mock = box.start(['mock', file]);
  mockUrl = await firstLine(mock, 'nodwyn mock');
  expect(box.run(['openapi', 'add', file, '--name', 'acme', '--base-url', mockUrl]).code).toBe(0);
}, 90_000);

afterEach(async () => {
  const exited = new Promise((resolve) => mock.once('close', resolve));
  mock.kill('SIGTERM');
  await exited;
  auth.closeAllConnections();
  await new Promise((resolve) => auth.close(resolve));
  box.remove();
});

describe('nodwyn openapi login (OAuth2 authorization code + PKCE)', () => {
  it('logs in on a loopback redirect, sends the token only once bound, and refreshes once after a 401', async () => {
    const login = box.start(['openapi', 'login', 'acme', '--client-id', 'nodwyn-cli', '--json']);
    const ended = exitOf(login);
    const { authorization_url: authorizationUrl, redirect_uri: redirectUri } = JSON.parse(await firstLine(login, 'openapi login')) as { authorization_url: string; redirect_uri: string };
    expect(new URL(authorizationUrl).searchParams.get('code_challenge_method')).toBe('S256');
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The person's browser: the authorization server answers with a redirect to nodwyn's loopback.
    const redirect = await fetch(authorizationUrl, { redirect: 'manual' });
    const forged = await fetch(`${redirectUri}?code=stolen&state=not-the-state`);
    expect(forged.status).toBe(400);
    const landed = await fetch(redirect.headers.get('location')!);
    expect(await landed.text()).toContain('authorized');
    const done = await ended;
    expect(done.code, done.stderr).toBe(0);
    const result = JSON.parse(done.stdout.trim().split('\n').at(-1)!) as { secret: string; class: string; bind: string; refreshable: boolean };
    expect(result).toMatchObject({ secret: 'openapi.acme.access', class: 'oauth-acme', refreshable: true });
    expect(done.stdout + done.stderr).not.toContain(ACCESS_1);
    expect(authLog.grants).toEqual(['authorization_code']);

    const unbound = await call('acme_get_item', { id: 'i1' });
    expect(unbound.stdout + unbound.stderr).toContain('GUARD_EGRESS_UNBOUND');
    expect((await seen()).filter((r) => r.operation === 'getItem')).toHaveLength(0);

    const host = new URL(mockUrl).host;
    expect(box.run(['bind', 'add', 'oauth-acme', '--host', host, '--position', 'header:Authorization', '--method', 'GET']).code).toBe(0);
    const bound = await call('acme_get_item', { id: 'i1' });
    expect(bound.code, bound.stderr).toBe(0);
    expect(bound.stdout).not.toContain(ACCESS_1);
    expect((await seen()).filter((r) => r.operation === 'getItem').map((r) => r.authorization)).toEqual([`Bearer ${ACCESS_1}`]);

    // The API refuses the token once: one refresh, one resend with the new token.
    await fetch(`${mockUrl}/__mock/inject`, { method: 'POST', body: JSON.stringify({ operation: 'getItem', inject: 'status=401;times=1' }) });
    const refreshed = await call('acme_get_item', { id: 'i2' });
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect((await seen()).filter((r) => r.operation === 'getItem').map((r) => r.authorization)).toEqual([`Bearer ${ACCESS_1}`, `Bearer ${ACCESS_1}`, `Bearer ${ACCESS_2}`]);
    expect(authLog.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(refreshed.stdout).not.toContain(ACCESS_2);

    const secrets = () => (JSON.parse(box.run(['secret', 'list', '--json']).stdout) as { name: string }[]).map((s) => s.name).filter((name) => name.startsWith('openapi.acme.'));
    expect(secrets().sort()).toEqual(['openapi.acme.access', 'openapi.acme.meta', 'openapi.acme.refresh']);
    expect(box.run(['openapi', 'logout', 'acme']).code).toBe(0);
    expect(secrets()).toEqual([]);
  }, 180_000);

  it('refuses a login for a document without an oauth2 scheme, and an authorization the server refused', async () => {
    const plain = box.write('plain.json', JSON.stringify({ openapi: '3.0.3', info: { title: 'p', version: '1' }, servers: [{ url: mockUrl }], paths: { '/a': { get: { operationId: 'a', responses: { '200': { description: 'ok' } } } } } }));
    expect(box.run(['openapi', 'add', plain, '--name', 'plain']).code).toBe(0);
    const missing = box.run(['openapi', 'login', 'plain', '--client-id', 'x', '--json']);
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stderr)).toMatchObject({ code: 'OPENAPI_OAUTH_SCHEME_MISSING' });

    const login = box.start(['openapi', 'login', 'acme', '--client-id', 'nodwyn-cli', '--json']);
    const ended = exitOf(login);
    const { authorization_url: authorizationUrl, redirect_uri: redirectUri } = JSON.parse(await firstLine(login, 'openapi login')) as { authorization_url: string; redirect_uri: string };
    const state = new URL(authorizationUrl).searchParams.get('state')!;
    await fetch(`${redirectUri}?error=access_denied&state=${encodeURIComponent(state)}`);
    const done = await ended;
    expect(done.code).toBe(3);
    expect(JSON.parse(done.stderr)).toMatchObject({ code: 'OPENAPI_LOGIN_FAILED', received_value: 'access_denied' });
  }, 120_000);
});
