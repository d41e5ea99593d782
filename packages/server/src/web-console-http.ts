import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Envelope } from '@nodwyn/protocol';
import type { CookieSessions } from './cookie-sessions.js';
import { serverErrors } from './errors.js';
import type { LoginLinks } from './login-links.js';
import { securityHeaders } from './security-headers.js';
import type { StaticFiles } from './static-files.js';

/** What the daemon's HTTP side works with. */
export interface WebConsoleHttpOptions {
  readonly links: LoginLinks;
  readonly sessions: CookieSessions;
  readonly files: StaticFiles;
  /** The daemon's own origin, `http(s)://HOST:PORT`. */
  readonly origin: () => string;
  /** `ws(s)://HOST:PORT`, for the CSP's `connect-src`. */
  readonly webSocketOrigin: () => string;
  /** Whether the request carries the daemon's bearer token. */
  readonly bearer: (request: IncomingMessage) => boolean;
}

/** A year: hashed asset names change with their content. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * The web console over HTTP (docs/frontends.md): `GET /login?t=` spends a one-time link and sets the
 * session cookie; `POST /_nodwyn/login-link` (bearer token) makes a link; `POST /_nodwyn/logout` forgets
 * the cookie's session; with the cookie (or the token), `/` is index.html and `/assets/<file>` the bundle.
 * Without either, every path is 401. Every answer carries the security headers.
 */
export function webConsoleHttp(options: WebConsoleHttpOptions): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    route(options, request, response).catch((error: unknown) => {
      send(options, response, 500, serverErrors.envelope('HTTP_FAILED', { operation: 'http', remediation: `The daemon failed to answer (${(error as Error).message}); try again, and see its output if it goes on.` }));
    });
  };
}

async function route(options: WebConsoleHttpOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  // Routed by the path as sent: URL parsing resolves `..` and `%2e%2e`, which must be refused, not followed.
  const path = (request.url ?? '/').split('?')[0]!;
  const method = request.method ?? 'GET';
  const origin = request.headers.origin;
  // A form or script on another site may not drive these, whatever credentials the browser adds.
  if (method !== 'GET' && method !== 'HEAD' && origin !== undefined && origin !== options.origin()) {
    return send(options, response, 403, forbiddenOrigin(origin));
  }
  if (url.pathname === '/login' && method === 'GET') return login(options, request, response, url.searchParams.get('t') ?? '');
  if (url.pathname === '/_nodwyn/login-link' && method === 'POST' && options.bearer(request)) {
    return send(options, response, 200, options.links.issue());
  }
  const cookie = options.sessions.has(request);
  if (!cookie && !options.bearer(request)) return unauthorized(options, request, response, url.pathname);
  if (path !== url.pathname || climbs(path)) return send(options, response, 404, notServed(method, path));
  if (url.pathname === '/_nodwyn/logout' && method === 'POST') {
    response.setHeader('set-cookie', options.sessions.forget(request));
    return send(options, response, 200, { loggedOut: true });
  }
  if (method === 'GET' || method === 'HEAD') {
    const file = url.pathname === '/' ? await options.files.index() : url.pathname.startsWith('/assets/') ? await options.files.asset(url.pathname.slice('/assets/'.length)) : undefined;
    if (file) {
      response.writeHead(200, { ...securityHeaders(options.webSocketOrigin()), 'content-type': file.contentType, 'content-length': file.body.length, ...(url.pathname === '/' ? {} : { 'cache-control': ASSET_CACHE }) });
      response.end(method === 'HEAD' ? undefined : file.body);
      return;
    }
    if (url.pathname === '/') {
      return send(options, response, 404, serverErrors.envelope('WEB_BUNDLE_MISSING', { operation: 'http', received_value: '/', remediation: 'This nodwyn has no web console bundle: build it with `node tools/build/build-cli.mjs` (it runs the console app\'s vite build and copies it next to the CLI), then restart nodwyn serve.' }));
    }
  }
  send(options, response, 404, notServed(method, path));
}

function notServed(method: string, path: string): Envelope {
  return serverErrors.envelope('NOT_SERVED', {
    operation: 'http',
    received_value: `${method} ${path}`.slice(0, 200),
    remediation: 'The daemon serves the web console at / and its files under /assets/, and the protocol over WebSocket at /acp.',
  });
}

/** A path with a `..` or backslash in it, plain or percent-encoded. */
function climbs(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return decoded.includes('..') || decoded.includes('\\');
}

function login(options: WebConsoleHttpOptions, request: IncomingMessage, response: ServerResponse, token: string): void {
  if (!options.links.spend(token)) {
    const env = serverErrors.envelope('LOGIN_LINK_INVALID', { operation: 'login', remediation: 'This login link was used already, expired (links live 60 s), or was never issued. Run `nodwyn web` for a new one.' });
    return wantsPage(request) ? page(options, response, 401, 'This login link is spent', 'It was used already, expired (a link lives 60 seconds), or was never issued. Run <code>nodwyn web</code> in a terminal for a new one.') : send(options, response, 401, env);
  }
  response.writeHead(303, { ...securityHeaders(options.webSocketOrigin()), location: '/', 'set-cookie': options.sessions.create(), 'content-length': 0 });
  response.end();
}

function unauthorized(options: WebConsoleHttpOptions, request: IncomingMessage, response: ServerResponse, path: string): void {
  if (path === '/' && wantsPage(request)) {
    return page(options, response, 401, 'Log in with nodwyn web', 'The web console needs a login. Run <code>nodwyn web</code> in a terminal: it opens this page with a one-time link (or prints the link to open).');
  }
  send(options, response, 401, serverErrors.envelope('TOKEN_REQUIRED', { operation: 'http', remediation: 'Log in to the web console with the link `nodwyn web` gives, or send the token from $NODWYN_HOME/serve.json as Authorization: Bearer <token>.' }));
}

function forbiddenOrigin(origin: string): Envelope {
  return serverErrors.envelope('ORIGIN_FORBIDDEN', { operation: 'http', received_value: origin.slice(0, 200), remediation: 'Only the web console served by this daemon may call it; open it with `nodwyn web`.' });
}

/** A browser navigating (not a script fetching): it gets a page a person can read. */
function wantsPage(request: IncomingMessage): boolean {
  return request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
}

function page(options: WebConsoleHttpOptions, response: ServerResponse, status: number, title: string, body: string): void {
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>nodwyn: ${title}</title></head><body><h1>${title}</h1><p>${body}</p></body></html>\n`;
  response.writeHead(status, { ...securityHeaders(options.webSocketOrigin()), 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  response.end(html);
}

function send(options: WebConsoleHttpOptions, response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...securityHeaders(options.webSocketOrigin()), 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
