import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { contentSecurityPolicy, SessionManager, startWebSocketServer, type ListeningServer, type WebSocketServerOptions } from '../src/index.js';
import { socketStream } from '../src/socket-stream.js';
import { recordingClient, Sandbox } from './harness.js';

const info = { name: 'nodwyn', version: '0.0.0-test' };
const TOKEN = 'the-daemon-token';

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A raw HTTP(S) request: the path goes out as written (fetch would resolve `..` itself). */
function raw(base: string, path: string, options: { method?: string; headers?: Record<string, string>; ca?: string } = {}): Promise<Answer> {
  const url = new URL(base);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers, ca: options.ca, timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket; resolves once open, rejects with the HTTP status of a refused upgrade. */
function open(url: string, headers: Record<string, string>, ca?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers, ca });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

/** Path and query of a login link. */
function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

describe('the web console over HTTP: login link, cookie, static files, CSP', () => {
  let sandbox: Sandbox;
  let server: ListeningServer;
  let sessions: SessionManager;
  let clock: number;
  let sockets: WebSocket[];

  async function start(extra: Partial<WebSocketServerOptions> = {}): Promise<ListeningServer> {
    server = await startWebSocketServer({ sessions, info, token: TOKEN, port: 0, webRoot: join(sandbox.root, 'web'), now: () => clock, ...extra });
    return server;
  }

  beforeEach(() => {
    sandbox = new Sandbox();
    sessions = new SessionManager(sandbox.runtime());
    sockets = [];
    clock = 1_000_000;
    mkdirSync(join(sandbox.root, 'web', 'assets'), { recursive: true });
    writeFileSync(join(sandbox.root, 'web', 'index.html'), '<!doctype html><title>console</title><script type="module" src="/assets/app-1234.js"></script>');
    writeFileSync(join(sandbox.root, 'web', 'assets', 'app-1234.js'), 'console.log("app")');
    writeFileSync(join(sandbox.root, 'web', 'assets', 'app-1234.css'), 'body{}');
    writeFileSync(join(sandbox.root, 'secret.txt'), 'outside the bundle');
  });
  afterEach(async () => {
    for (const socket of sockets) socket.terminate();
    await server?.close();
    await sessions.shutdown();
    sandbox.remove();
  });

  /** Logs in through a fresh link; returns the cookie pair (`nodwyn_session=…`). */
  async function login(): Promise<string> {
    const answer = await raw(server.http, pathOf(server.loginLink().url));
    expect(answer.status).toBe(303);
    return answer.headers['set-cookie']![0]!.split(';')[0]!;
  }

  it('answers 401 without a cookie on every path and on the WebSocket upgrade', async () => {
    await start();
    for (const path of ['/', '/assets/app-1234.js', '/anything', '/_nodwyn/logout']) {
      const answer = await raw(server.http, path);
      expect(answer.status, path).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 'error', code: 'TOKEN_REQUIRED' });
    }
    const page = await raw(server.http, '/', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(401);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('nodwyn web');
    await expect(open(server.url, {})).rejects.toThrow('HTTP 401');
  });

  it('logs in through a link once: 303 to / with an HttpOnly, SameSite=Strict cookie; the second use is 401', async () => {
    await start();
    const link = server.loginLink();
    expect(link.expiresInMs).toBe(60_000);
    expect(link.url).toMatch(new RegExp(`^${server.http}login\\?t=[A-Za-z0-9_-]{43}$`));
    const first = await raw(server.http, pathOf(link.url));
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = first.headers['set-cookie']![0]!;
    expect(cookie).toMatch(/^nodwyn_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(cookie).not.toContain('Secure');
    const second = await raw(server.http, pathOf(link.url));
    expect(second.status).toBe(401);
    expect(JSON.parse(second.body)).toMatchObject({ code: 'LOGIN_LINK_INVALID' });
    expect(second.headers['set-cookie']).toBeUndefined();
    expect((await raw(server.http, '/login?t=never-issued')).status).toBe(401);
  });

  it('refuses a link older than 60 s', async () => {
    await start();
    const link = server.loginLink();
    clock += 60_000;
    expect((await raw(server.http, pathOf(link.url))).status).toBe(401);
    const fresh = server.loginLink();
    clock += 59_000;
    expect((await raw(server.http, pathOf(fresh.url))).status).toBe(303);
  });

  it('with the cookie serves index.html and the assets, every answer with the contract headers', async () => {
    await start();
    const cookie = await login();
    const index = await raw(server.http, '/', { headers: { cookie } });
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>console</title>');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self' ws://127.0.0.1:${server.port}; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
    expect(index.headers['content-security-policy']).toBe(csp);
    expect(contentSecurityPolicy(`ws://127.0.0.1:${server.port}`)).toBe(csp);
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['referrer-policy']).toBe('no-referrer');
    expect(index.headers['cache-control']).toBe('no-store');
    const script = await raw(server.http, '/assets/app-1234.js', { headers: { cookie } });
    expect(script.status).toBe(200);
    expect(script.body).toBe('console.log("app")');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['content-security-policy']).toBe(csp);
    expect((await raw(server.http, '/assets/app-1234.css', { headers: { cookie } })).headers['content-type']).toBe('text/css; charset=utf-8');
    const missing = await raw(server.http, '/elsewhere', { headers: { cookie } });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ code: 'NOT_SERVED' });
    expect(missing.headers['content-security-policy']).toBe(csp);
    const refused = await raw(server.http, '/anything');
    expect(refused.headers['content-security-policy']).toBe(csp);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('refuses path traversal, plain and percent-encoded', async () => {
    await start();
    const cookie = await login();
    for (const path of ['/assets/../../etc/passwd', '/assets/..%2f..%2fsecret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/assets/%2e%2e%2fsecret.txt', '/assets/..%5csecret.txt', '/assets/%2e%2e']) {
      const answer = await raw(server.http, path, { headers: { cookie } });
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain('outside the bundle');
      expect(answer.body).not.toContain('root:');
    }
  });

  it('takes the daemon token as a bearer for HTTP and makes links with POST /_nodwyn/login-link', async () => {
    await start();
    expect((await raw(server.http, '/_nodwyn/login-link', { method: 'POST' })).status).toBe(401);
    const made = await raw(server.http, '/_nodwyn/login-link', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(made.status).toBe(200);
    const link = JSON.parse(made.body) as { url: string; expiresInMs: number };
    expect(link.expiresInMs).toBe(60_000);
    expect((await raw(server.http, pathOf(link.url))).status).toBe(303);
    expect((await raw(server.http, '/', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('logout forgets the session and clears the cookie', async () => {
    await start();
    const cookie = await login();
    const out = await raw(server.http, '/_nodwyn/logout', { method: 'POST', headers: { cookie, origin: server.http.slice(0, -1) } });
    expect(out.status).toBe(200);
    expect(out.headers['set-cookie']![0]).toMatch(/^nodwyn_session=; .*Max-Age=0/);
    expect((await raw(server.http, '/', { headers: { cookie } })).status).toBe(401);
    await expect(open(server.url, { cookie })).rejects.toThrow('HTTP 401');
  });

  it('refuses a POST from another origin even with the cookie', async () => {
    await start();
    const cookie = await login();
    const answer = await raw(server.http, '/_nodwyn/logout', { method: 'POST', headers: { cookie, origin: 'https://evil.example' } });
    expect(answer.status).toBe(403);
    expect((await raw(server.http, '/', { headers: { cookie } })).status).toBe(200);
  });

  it('opens the WebSocket with the cookie from its own origin, and answers _nodwyn/login-link over it', async () => {
    await start();
    const cookie = await login();
    const socket = await open(server.url, { cookie, origin: server.http.slice(0, -1) });
    sockets.push(socket);
    const connection = recordingClient().app.connect(socketStream(socket));
    await connection.agent.request('initialize', { protocolVersion: 1, clientInfo: { name: 'browser', version: '1.0.0' } });
    const link = await connection.agent.request<{ url: string; expiresInMs: number }>('_nodwyn/login-link', {});
    expect(link.expiresInMs).toBe(60_000);
    expect((await raw(server.http, pathOf(link.url))).status).toBe(303);
  });

  it('refuses a cross-origin WebSocket with 403 before looking at credentials', async () => {
    await start();
    const cookie = await login();
    await expect(open(server.url, { cookie, origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(open(server.url, { origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(open(server.url, { authorization: `Bearer ${TOKEN}`, origin: `http://localhost:${server.port}` })).rejects.toThrow('HTTP 403');
  });

  it('refuses a host beyond loopback without TLS, with an envelope naming the keys', async () => {
    await expect(startWebSocketServer({ sessions, info, token: TOKEN, port: 0, host: '0.0.0.0' })).rejects.toMatchObject({
      envelope: { code: 'TLS_REQUIRED', failed_parameter: '[serve] host', remediation: expect.stringContaining('tls_cert') },
    });
  });

  it('serves https and wss under TLS, with a Secure cookie and wss in the CSP', async () => {
    const cert = join(sandbox.root, 'cert.pem');
    const key = join(sandbox.root, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', key, '-out', cert], { stdio: 'ignore', timeout: 10_000 });
    const ca = readFileSync(cert, 'utf8');
    await start({ host: 'localhost', tls: { cert: ca, key: readFileSync(key) } });
    expect(server.http).toBe(`https://localhost:${server.port}/`);
    expect(server.url).toBe(`wss://localhost:${server.port}/acp`);
    const link = server.loginLink();
    expect(link.url.startsWith(`https://localhost:${server.port}/login?t=`)).toBe(true);
    const answer = await raw(server.http, pathOf(link.url), { ca });
    expect(answer.status).toBe(303);
    const setCookie = answer.headers['set-cookie']![0]!;
    expect(setCookie).toMatch(/; HttpOnly; SameSite=Strict; Path=\/; Secure$/);
    const cookie = setCookie.split(';')[0]!;
    const index = await raw(server.http, '/', { headers: { cookie }, ca });
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toContain(`connect-src 'self' wss://localhost:${server.port};`);
    const socket = await open(server.url, { cookie, origin: `https://localhost:${server.port}` }, ca);
    sockets.push(socket);
    await expect(open(server.url, { cookie, origin: `http://localhost:${server.port}` }, ca)).rejects.toThrow('HTTP 403');
  });
});
