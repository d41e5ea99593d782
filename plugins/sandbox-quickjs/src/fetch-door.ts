import { EnvelopeError, netGrantCovers, parseNetGrant, type ApplyResult, type NetGrant } from '@nodwyn/plugin-api';
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import { doorCall, requireGrant, requireString, stringArgument, type DoorScope } from './door-call.js';
import { sandboxError } from './errors.js';

const DOOR = 'nodwyn.fetch';
/** http_request's largest timeout_ms. */
const MAX_REQUEST_MS = 120_000;
const INIT_KEYS = new Set(['method', 'headers', 'body']);

interface FetchInit {
  readonly method: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

function badArgument(param: string, expected: string, received?: unknown): EnvelopeError {
  return sandboxError('SANDBOX_DOOR_ARGUMENT', { operation: DOOR, failed_parameter: param, received_value: received, expected, remediation: `Call ${DOOR}(url, { method?, headers?, body? }) with ${param.slice(2)} as ${expected}.` });
}

/** The options the prelude encoded as JSON text, checked for the shape the door takes. */
function parseInit(text: string | undefined): FetchInit {
  const init: unknown = text === undefined ? {} : JSON.parse(text);
  if (typeof init !== 'object' || init === null || Array.isArray(init)) throw badArgument('$.options', 'an object');
  const fields = init as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !INIT_KEYS.has(key));
  if (unknown) throw badArgument(`$.options.${unknown}`, 'only method, headers and body', unknown);
  const { method = 'GET', headers, body } = fields;
  if (typeof method !== 'string') throw badArgument('$.options.method', 'a string such as "GET" or "POST"', method);
  if (headers !== undefined && (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string'))) {
    throw badArgument('$.options.headers', 'an object of string values', headers);
  }
  return { method: method.toUpperCase(), ...(headers ? { headers: headers as Record<string, string> } : {}), ...(body === undefined ? {} : { body }) };
}

/**
 * The run's `net` grant, each entry checked as `host[:port]` by the one parser the registry uses too, so
 * what a person was asked about is what this runner grants.
 *
 * @throws EnvelopeError SANDBOX_GRANT_INVALID naming the first entry that is not a plain host
 */
export function netGrants(net: readonly string[] | undefined): NetGrant[] {
  return (net ?? []).map((entry, index) => {
    const grant = parseNetGrant(entry);
    if (grant) return grant;
    throw sandboxError('SANDBOX_GRANT_INVALID', {
      operation: 'sandbox.run',
      failed_parameter: `$.grants.net[${index}]`,
      received_value: entry,
      expected: '`host` or `host:port`: a lower-case name, a dotted-decimal IPv4 address or a bracketed IPv6 address',
      remediation: 'Grant each network host as a plain name or address with an optional port ("api.example.com", "127.0.0.1:8080"); URLs, user@host, paths, wildcards and IPv4 shorthands like 2130706433 are refused.',
    });
  });
}

/** The URL, if it is http(s) and its host is granted; else the refusal. */
function grantedUrl(text: string, net: readonly string[] | undefined): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badArgument('$.url', 'an absolute http:// or https:// URL', text);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badArgument('$.url', 'an absolute http:// or https:// URL', text);
  requireGrant((net?.length ?? 0) > 0, 'net', DOOR);
  if (netGrants(net).some((grant) => netGrantCovers(grant, url))) return url.href;
  throw sandboxError('SANDBOX_HOST_NOT_GRANTED', {
    operation: DOOR,
    failed_parameter: '$.url',
    received_value: url.host,
    expected: `one of the granted hosts: ${net?.join(', ')}`,
    remediation: `${DOOR} may reach only the hosts in the capability's net grant (${net?.join(', ')}); ${url.host} is not one of them. Request it when registering the capability.`,
  });
}

/** The response as the code sees it: status and headers from http_request's data, the body from its text. */
function responseOf(result: Extract<ApplyResult, { ok: true }>): { status: number; headers: Record<string, string>; body: string } {
  const data = (result.data ?? {}) as { status?: unknown; headers?: unknown };
  if (typeof data.status !== 'number') {
    throw sandboxError('SANDBOX_DOOR_ANSWER_INVALID', { operation: DOOR, remediation: 'http_request answered without a status; this is a bug in the egress plugin or this runner.' });
  }
  const headers = Object.fromEntries(Object.entries((data.headers ?? {}) as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const split = result.content.indexOf('\n\n');
  return { status: data.status, headers, body: split < 0 ? '' : result.content.slice(split + 2) };
}

function responseHandle(vm: QuickJSContext, response: ReturnType<typeof responseOf>): QuickJSHandle {
  const object = vm.newObject();
  vm.newNumber(response.status).consume((status) => vm.setProp(object, 'status', status));
  vm.newString(response.body).consume((body) => vm.setProp(object, 'body', body));
  const headers = vm.newObject();
  for (const [name, value] of Object.entries(response.headers)) vm.newString(value).consume((v) => vm.setProp(headers, name, v));
  headers.consume((h) => vm.setProp(object, 'headers', h));
  return object;
}

/**
 * `nodwyn.fetch(url, options)`: the net grant and the host are checked here, then the request goes out
 * only through http_request and the egress edge, carrying the run's taint, so a run that read a tagged
 * value can send it only where its class is bound.
 */
export function fetchDoor(scope: DoorScope, urlHandle: QuickJSHandle, initHandle: QuickJSHandle): QuickJSHandle {
  const url = stringArgument(scope.vm, urlHandle);
  const initText = stringArgument(scope.vm, initHandle);
  return doorCall(scope, DOOR, async () => {
    const target = grantedUrl(requireString(url, DOOR, '$.url'), scope.request.grants.net);
    const init = parseInit(initText);
    const timeout = Math.max(1, Math.min(MAX_REQUEST_MS, Math.ceil(scope.state.remainingMs())));
    const result = await scope.apply('http_request', { ...init, url: target, timeout_ms: timeout });
    if (!result.ok) throw new EnvelopeError(result.envelope);
    const response = responseOf(result);
    return () => responseHandle(scope.vm, response);
  });
}
