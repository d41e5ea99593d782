/**
 * One spelling of a sandbox `net` grant entry, shared by the capability registry (which stores and shows
 * it) and every runner (which enforces it), so what a person is asked about is what is granted.
 */

/** A checked `net` grant entry. */
export interface NetGrant {
  /** The host as a URL spells it: lower case, IDNA (punycode), IPv6 in brackets. */
  readonly host: string;
  /** The port, when the entry names one; without it every port of the host is granted. */
  readonly port?: number;
  /** `host` or `host:port`: the normalised entry, what is stored and shown. */
  readonly text: string;
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/**
 * `host[:port]` before any URL parsing. `@` (userinfo), `/`, `\`, `?`, `#` (a path, query or fragment),
 * `%` (escapes a URL decodes into dots) and whitespace never belong to a host, so they are refused here.
 */
const SHAPE = /^(\[[0-9a-f:.]+\]|[^\s/\\@?#%:[\]]+)(?::([1-9]\d{0,4}))?$/i;

/**
 * Parses a `net` grant entry as exactly `host` or `host:port`, or returns undefined. Besides URLs,
 * userinfo (`api.github.com@127.0.0.16`), paths and wildcards, it refuses an IPv4 address written any way
 * but canonical dotted decimal (`2130706433`, `0x7f.1`, `127.1`, `0177.0.0.1`, full-width digits): a URL
 * parser reads those as an address a person does not see in the text.
 */
export function parseNetGrant(entry: string): NetGrant | undefined {
  if (typeof entry !== 'string' || entry.length > 260) return undefined;
  const shape = SHAPE.exec(entry);
  if (!shape) return undefined;
  const [, written, portText] = shape as unknown as [string, string, string | undefined];
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && port > 65_535) return undefined;
  if (!URL.canParse(`http://${written}/`)) return undefined;
  const host = new URL(`http://${written}/`).hostname;
  const ipv4 = DOTTED_QUAD.test(host);
  // A URL turns every IPv4 shorthand into dotted decimal: only an entry already written so is honest.
  if (ipv4 && host !== written) return undefined;
  if (!ipv4 && !host.startsWith('[') && (!NAME.test(host) || host.length > 253)) return undefined;
  return { host, ...(port === undefined ? {} : { port }), text: port === undefined ? host : `${host}:${port}` };
}

/** True when the grant covers the URL: the same host as the URL spells it, and the port if one is granted. */
export function netGrantCovers(grant: NetGrant, url: URL): boolean {
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return grant.host === url.hostname && (grant.port === undefined || grant.port === port);
}
