/** Where a request goes, as the binding table sees it. */
export interface Destination {
  /** `http`, `https`, `ws` or `wss`. */
  readonly scheme: string;
  /** Lowercased, punycode, IPv6 in brackets (as `URL.hostname`). */
  readonly hostname: string;
  /** The port the connection uses, explicit or the scheme's default. */
  readonly port: number;
  /** `hostname`, plus `:port` when the port is not the scheme's default (as `URL.host`). */
  readonly host: string;
  readonly path: string;
  readonly method: string;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };
const SECURE_SCHEMES = new Set(['https', 'wss']);

/** The destination of a request, or undefined for a scheme the binding table cannot speak about. */
export function destinationOf(url: URL, method: string): Destination | undefined {
  const defaultPort = DEFAULT_PORTS[url.protocol];
  if (defaultPort === undefined || url.hostname === '') return undefined;
  return {
    scheme: url.protocol.slice(0, -1),
    hostname: url.hostname,
    port: url.port === '' ? defaultPort : Number(url.port),
    host: url.host,
    path: url.pathname,
    method: method.toUpperCase(),
  };
}

/** True when the connection is encrypted. */
export function isSecure(destination: Destination): boolean {
  return SECURE_SCHEMES.has(destination.scheme);
}

/** True for hosts whose traffic never leaves the machine: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopback(hostname: string): boolean {
  // URL already rewrote every IPv4 spelling (127.1, 0x7f.0.0.1) to dotted decimal.
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** A binding's host: an exact host or `*.suffix` (one label), with an optional port. */
export interface HostPattern {
  readonly wildcard: boolean;
  readonly hostname: string;
  readonly port?: number;
}

const HOST_SYNTAX = /^(\*\.)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._\-\u0080-\uFFFF]+)(?::(\d{1,5}))?$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Parses and normalizes a binding's host the way `URL` normalizes a request's (lowercase, IDNA to
 * punycode, IPv4 spellings), so both sides compare as equal strings. Returns `{ error }` when invalid.
 */
export function parseHostPattern(input: string): HostPattern | { readonly error: string } {
  const match = HOST_SYNTAX.exec(input.trim());
  if (!match) return { error: 'a host such as api.github.com, 127.0.0.1:8080, [::1]:8080 or *.example.com (no scheme, path or wildcard elsewhere)' };
  const [, star, rawHost, rawPort] = match;
  let hostname: string;
  try {
    hostname = new URL(`https://${rawHost}/`).hostname;
  } catch {
    return { error: `a valid host name (${rawHost} is not one)` };
  }
  const port = rawPort === undefined ? undefined : Number(rawPort);
  if (port !== undefined && (port < 1 || port > 65535)) return { error: 'a port between 1 and 65535' };
  const wildcard = star !== undefined;
  // `*.com` or `*.10.0.0.1` would bind a whole top-level domain or make no sense; refuse both.
  if (wildcard && (!hostname.includes('.') || IPV4.test(hostname) || hostname.startsWith('['))) {
    return { error: 'a wildcard over a domain with at least two labels, such as *.example.com' };
  }
  return { wildcard, hostname, ...(port === undefined ? {} : { port }) };
}

/** The canonical text of a host pattern, as stored in bindings.toml. */
export function formatHostPattern(pattern: HostPattern): string {
  return `${pattern.wildcard ? '*.' : ''}${pattern.hostname}${pattern.port === undefined ? '' : `:${pattern.port}`}`;
}

/**
 * True when the pattern names the destination's host and port. No port in the pattern means the scheme's
 * default port; `*.example.com` matches exactly one more label (`api.example.com`, not `example.com` nor
 * `a.b.example.com`), as TLS certificate wildcards do.
 */
export function hostMatches(pattern: HostPattern, destination: Destination): boolean {
  const defaultPort = DEFAULT_PORTS[`${destination.scheme}:`];
  if ((pattern.port ?? defaultPort) !== destination.port) return false;
  if (!pattern.wildcard) return destination.hostname === pattern.hostname;
  const suffix = `.${pattern.hostname}`;
  if (!destination.hostname.endsWith(suffix)) return false;
  const label = destination.hostname.slice(0, -suffix.length);
  return label.length > 0 && !label.includes('.');
}

/** Normalizes a path prefix the way `URL` normalizes a request's path; returns `{ error }` when invalid. */
export function parsePathPrefix(input: string): string | { readonly error: string } {
  if (!input.startsWith('/') || /[?#]/.test(input)) return { error: 'a path starting with / and without ? or #' };
  return new URL(input, 'https://host.invalid').pathname;
}

/** True when `path` is `prefix` or lies under it, on a segment boundary (`/repos` does not cover `/repository`). */
export function pathMatches(prefix: string | undefined, path: string): boolean {
  if (prefix === undefined || prefix === '/') return true;
  if (path === prefix) return true;
  return prefix.endsWith('/') ? path.startsWith(prefix) : path.startsWith(`${prefix}/`);
}
