import { jsonPath, type EgressPosition, type EgressTarget } from '@nodwyn/plugin-api';
import { WHOLE_BODY } from './position.js';

/** A JSON value, as a request body. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** http_request's arguments, after validation. */
export interface HttpRequestArgs {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: JsonValue;
  readonly basic_auth?: { readonly user: string; readonly password: string };
  readonly timeout_ms?: number;
}

/** A request body: none, raw text, or JSON (sent as `application/json`). */
export type RequestBody = { readonly kind: 'none' } | { readonly kind: 'text'; readonly text: string } | { readonly kind: 'json'; readonly value: JsonValue };

/**
 * One request, in the form both the egress stage and the sender read, so what the stage checked is what
 * is sent. Values may still hold `{{secret:NAME}}` handles until the handler substitutes them.
 */
export interface PreparedRequest {
  readonly method: string;
  /** The URL without its query string. */
  readonly base: URL;
  /** The URL's own query parameters, then the `query` argument's. */
  readonly query: readonly (readonly [string, string])[];
  readonly headers: readonly (readonly [string, string])[];
  readonly body: RequestBody;
  readonly basic?: { readonly user: string; readonly password: string };
}

/** Builds the request an `http_request` call describes. */
export function prepareRequest(args: HttpRequestArgs): PreparedRequest {
  const url = new URL(args.url);
  const query: [string, string][] = [...url.searchParams, ...Object.entries(args.query ?? {})];
  url.search = '';
  url.hash = '';
  const body: RequestBody = args.body === undefined ? { kind: 'none' } : typeof args.body === 'string' ? { kind: 'text', text: args.body } : { kind: 'json', value: args.body };
  return {
    method: args.method.toUpperCase(),
    base: url,
    query,
    headers: Object.entries(args.headers ?? {}),
    body,
    ...(args.basic_auth ? { basic: args.basic_auth } : {}),
  };
}

/** The full URL, query included. */
export function fullUrl(request: PreparedRequest): URL {
  const url = new URL(request.base);
  if (request.query.length > 0) url.search = new URLSearchParams(request.query.map(([k, v]): [string, string] => [k, v])).toString();
  return url;
}

/** Every leaf of a JSON value with its JSON path (`$.a.b`, `$.items[0]`); a scalar body is one leaf at `$`. */
export function jsonLeaves(value: JsonValue, path: (string | number)[] = []): { path: string; value: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => jsonLeaves(item, [...path, index]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => jsonLeaves(item, [...path, key]));
  return [{ path: jsonPath(path), value: typeof value === 'string' ? value : JSON.stringify(value) }];
}

/** Every value the request carries, with where it sits. */
export function positionsOf(request: PreparedRequest): EgressPosition[] {
  const positions: EgressPosition[] = [
    ...request.headers.map(([name, value]) => ({ kind: 'header' as const, name, value })),
    ...request.query.map(([name, value]) => ({ kind: 'query' as const, name, value })),
  ];
  if (request.body.kind === 'text') positions.push({ kind: 'body', name: WHOLE_BODY, value: request.body.text });
  if (request.body.kind === 'json') positions.push(...jsonLeaves(request.body.value).map((leaf) => ({ kind: 'body' as const, name: leaf.path, value: leaf.value })));
  if (request.basic) {
    positions.push({ kind: 'basic', name: 'user', value: request.basic.user }, { kind: 'basic', name: 'password', value: request.basic.password });
  }
  return positions;
}

/** What the egress stage checks before the request runs. */
export function egressTargetsOf(args: HttpRequestArgs): EgressTarget[] {
  const request = prepareRequest(args);
  return [{ method: request.method, url: fullUrl(request).href, positions: positionsOf(request) }];
}

function mapJsonStrings(value: JsonValue, map: (text: string) => string): JsonValue {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapJsonStrings(item, map));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapJsonStrings(v, map)]));
  return value;
}

/** The same request with `map` applied to every value (never to names or keys): the last-hop substitution. */
export function mapValues(request: PreparedRequest, map: (text: string) => string): PreparedRequest {
  const body: RequestBody =
    request.body.kind === 'text' ? { kind: 'text', text: map(request.body.text) } : request.body.kind === 'json' ? { kind: 'json', value: mapJsonStrings(request.body.value, map) } : request.body;
  return {
    ...request,
    query: request.query.map(([k, v]) => [k, map(v)] as const),
    headers: request.headers.map(([k, v]) => [k, map(v)] as const),
    body,
    ...(request.basic ? { basic: { user: map(request.basic.user), password: map(request.basic.password) } } : {}),
  };
}
