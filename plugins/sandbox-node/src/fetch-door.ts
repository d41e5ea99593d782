import { netGrantCovers, parseNetGrant } from '@nodwyn/plugin-api';
import { nodeError } from './errors.js';
import type { DoorApply } from './read-text.js';

/** What `nodwyn.fetch` answers. */
export interface FetchAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** http_request's own longest wait. */
const MAX_REQUEST_MS = 120_000;
/**
 * A request may wait for what is left of the run plus this: the run's own timeout ends the run first
 * (with SANDBOX_TIMEOUT), and the abandoned request ends soon after instead of living on for 30 s.
 */
const AFTER_RUN_MS = 1_000;

function invalid(remediation: string, parameter: string, received: unknown) {
  return nodeError('SANDBOX_DOOR_ARGUMENT', { failed_parameter: parameter, received_value: received, remediation });
}

/**
 * True when `url` is one of the granted hosts, each entry read by plugin-api's `parseNetGrant` (the
 * registry's parser; an entry that is not exactly `host[:port]` grants nothing). Names are compared as
 * spelled, never resolved, so `localhost` is not `127.0.0.1` and a DNS answer cannot widen a grant.
 */
export function hostGranted(url: URL, net: readonly string[]): boolean {
  return net.some((entry) => {
    const grant = parseNetGrant(entry);
    return grant !== undefined && netGrantCovers(grant, url);
  });
}

function parseUrl(text: unknown): URL {
  let url: URL;
  try {
    url = new URL(String(text));
  } catch {
    throw invalid('Pass an absolute http:// or https:// URL.', '$.url', text);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('Only http:// and https:// URLs can be fetched.', '$.url', text);
  return url;
}

function requestOf(init: unknown): { method: string; headers?: Record<string, string>; body?: unknown } {
  const options = (typeof init === 'object' && init !== null ? init : {}) as Record<string, unknown>;
  const method = String(options.method ?? 'GET').toUpperCase();
  if (!METHODS.has(method)) throw invalid(`Use one of ${[...METHODS].join(', ')}.`, '$.init.method', options.method);
  const headers = options.headers;
  if (headers !== undefined && (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string'))) {
    throw invalid('Pass headers as a plain object of strings, e.g. { "content-type": "text/plain" }.', '$.init.headers', headers);
  }
  return { method, ...(headers ? { headers: headers as Record<string, string> } : {}), ...(options.body !== undefined ? { body: options.body } : {}) };
}

/** `HTTP 200\nheader: value\n…\n\nbody`: http_request's text, after the text layers. */
function bodyOf(content: string): string {
  const gap = content.indexOf('\n\n');
  return gap < 0 ? '' : content.slice(gap + 2);
}

/**
 * `nodwyn.fetch`: the host is checked against the `net` grant, then the request goes through the guarded
 * `http_request` tool, so the egress edge sees it (bindings, `{{secret:NAME}}` handles, and the run's
 * taint: a run that read a secret cannot send it to an unbound host). Headers are the ones http_request
 * shows; the body is its text (cut at 64 KiB by http_request, redacted by the text layers).
 */
export async function fetchThroughDoor(apply: DoorApply, net: readonly string[], args: { url?: unknown; init?: unknown }, remainingMs: number): Promise<FetchAnswer> {
  const url = parseUrl(args.url);
  if (!hostGranted(url, net)) {
    throw nodeError('SANDBOX_HOST_NOT_GRANTED', {
      failed_parameter: '$.url',
      received_value: url.host,
      expected: net.join(', '),
      remediation: `${url.host} is not among the hosts this run may reach (${net.join(', ')}); fetch one of those, or ask for the host in the capability's net grant.`,
    });
  }
  const timeout = Math.max(1, Math.min(MAX_REQUEST_MS, Math.floor(remainingMs) + AFTER_RUN_MS));
  const result = await apply('http_request', { ...requestOf(args.init), url: url.href, timeout_ms: timeout });
  const data = (result.data ?? {}) as { status?: unknown; headers?: unknown };
  const headers = typeof data.headers === 'object' && data.headers !== null ? (data.headers as Record<string, string>) : {};
  return { status: typeof data.status === 'number' ? data.status : 0, headers, body: bodyOf(result.content) };
}
