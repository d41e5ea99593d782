import { egressError } from './errors.js';

/** Most same-origin redirects followed before giving up. */
export const MAX_REDIRECTS = 5;

/** A request ready for the wire: values substituted. */
export interface WireRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string | Uint8Array;
}

/** The last response, and why nodwyn stopped there when it did not follow a redirect. */
export interface SendOutcome {
  readonly response: Response;
  readonly redirects: number;
  readonly note?: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that describe a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = new Set(['content-type', 'content-encoding', 'content-language', 'content-location']);

/** Where a same-origin redirect leads: the method and URL of the next request, and whether its body is dropped. */
export interface RedirectHop {
  readonly method: string;
  readonly url: URL;
  readonly bodyless: boolean;
}

/**
 * Decides one redirect hop: the request to send there (secrets substituted only where their binding
 * covers the hop), or a note that says why the redirect was not followed.
 */
export type FollowHop = (hop: RedirectHop) => Promise<WireRequest | { readonly note: string }>;

/** The hop a redirect asks for, per the fetch standard: 303 (and 301/302 after a POST) become a bodiless GET. */
function hopOf(method: string, status: number, url: URL): RedirectHop {
  const toGet = (status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST');
  return toGet ? { method: 'GET', url, bodyless: true } : { method, url, bodyless: false };
}

/** The headers a request keeps on a hop: without the ones that describe a body it no longer has. */
export function hopHeaders<T extends readonly [string, string]>(headers: readonly T[], hop: RedirectHop): T[] {
  return hop.bodyless ? headers.filter(([name]) => !BODY_HEADERS.has(name.toLowerCase())) : [...headers];
}

/**
 * Sends a request and follows redirects itself (fetch's own following would carry credentials anywhere).
 * Only same-origin redirects are followed; a cross-origin one ends the exchange with the 3xx and a note,
 * so the next request to that origin is a new call the egress stage checks like any other. Each
 * same-origin hop is a new path (and maybe method) the guard did not see, so `follow` builds it.
 */
export async function send(first: WireRequest, signal: AbortSignal, follow: FollowHop): Promise<SendOutcome> {
  let request = first;
  for (let redirects = 0; ; redirects += 1) {
    const response = await fetch(request.url, { method: request.method, headers: request.headers.map(([k, v]) => [k, v]), body: request.body, redirect: 'manual', signal });
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null) return { response, redirects };
    const next = URL.canParse(location, request.url.href) ? new URL(location, request.url) : undefined;
    if (next === undefined) return { response, redirects, note: 'The Location header is not a valid URL; the redirect was not followed.' };
    if (next.origin !== request.url.origin) {
      return {
        response,
        redirects,
        note: `The redirect to ${next.origin} was not followed: http_request follows same-origin redirects only. If that URL should be fetched, call http_request on it; it is checked like any request.`,
      };
    }
    if (redirects === MAX_REDIRECTS) {
      await response.body?.cancel();
      throw egressError('HTTP_TOO_MANY_REDIRECTS', {
        operation: 'http_request',
        remediation: `The server redirected more than ${MAX_REDIRECTS} times within ${request.url.origin}; request the final URL directly.`,
      });
    }
    const followed = await follow(hopOf(request.method, response.status, next));
    if ('note' in followed) return { response, redirects, note: followed.note };
    await response.body?.cancel();
    request = followed;
  }
}
