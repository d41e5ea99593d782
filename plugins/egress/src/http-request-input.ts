import { SECRET_HANDLE, z } from '@nodwyn/plugin-api';
import { METHODS } from './binding-table.js';
import type { JsonValue } from './request.js';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers fetch manages itself, or that would let a request say one host and reach another. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect']);
/** Timeouts the caller may ask for; the primitive's own deadline sits just above the largest. */
export const MAX_TIMEOUT_MS = 120_000;
export const DEFAULT_TIMEOUT_MS = 30_000;

function hasHandle(text: string): boolean {
  return new RegExp(SECRET_HANDLE.source).test(text);
}

function jsonKeys(value: JsonValue, path: (string | number)[] = []): { key: string; path: (string | number)[] }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => jsonKeys(item, [...path, i]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => [{ key, path: [...path, key] }, ...jsonKeys(item, [...path, key])]);
}

type Issue = { path: (string | number)[]; message: string };

/** URL rules: http(s) only, no credentials in it, handles only in the query (they are substituted in values only). */
function urlIssues(text: string): Issue[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [{ path: ['url'], message: 'an absolute http:// or https:// URL' }];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return [{ path: ['url'], message: 'an http:// or https:// URL' }];
  if (url.username || url.password) return [{ path: ['url'], message: 'a URL without user:password@; use basic_auth' }];
  if (hasHandle(text.split(/[?#]/)[0]!)) return [{ path: ['url'], message: 'secret handles only in header, query, body or basic_auth values, not in the host or path' }];
  if ([...url.searchParams.keys()].some(hasHandle)) return [{ path: ['url'], message: 'secret handles only in query values, not in parameter names' }];
  return [];
}

/** Rules zod cannot say in a schema: where handles may appear, reserved headers, bodies on GET. */
function requestIssues(args: { method: string; url: string; headers?: Record<string, string>; query?: Record<string, string>; body?: JsonValue; basic_auth?: unknown }): Issue[] {
  const issues = urlIssues(args.url);
  for (const name of Object.keys(args.headers ?? {})) {
    if (!HEADER_NAME.test(name)) issues.push({ path: ['headers', name], message: 'a header name of token characters' });
    else if (RESERVED_HEADERS.has(name.toLowerCase())) issues.push({ path: ['headers', name], message: `no ${name} header: it is set by the HTTP client` });
    else if (name.toLowerCase() === 'authorization' && args.basic_auth) issues.push({ path: ['headers', name], message: 'either an Authorization header or basic_auth, not both' });
  }
  for (const name of Object.keys(args.query ?? {})) if (hasHandle(name)) issues.push({ path: ['query', name], message: 'secret handles only in query values, not in names' });
  if (args.body !== undefined) {
    if (args.method === 'GET' || args.method === 'HEAD') issues.push({ path: ['body'], message: `no body with ${args.method}` });
    for (const { key, path } of jsonKeys(args.body)) if (hasHandle(key)) issues.push({ path: ['body', ...path], message: 'secret handles only in JSON values, not in keys' });
  }
  return issues;
}

/** http_request's input schema. */
export const HttpRequestInput = z
  .object({
    method: z.enum(METHODS).describe('HTTP method, upper case.'),
    url: z.string().describe('Absolute http(s) URL, may include a query string. Plain http is allowed only to loopback unless the user allowed it.'),
    headers: z.record(z.string(), z.string()).optional().describe('Request headers. Values may hold {{secret:NAME}} handles.'),
    query: z.record(z.string(), z.string()).optional().describe('Query parameters added to the URL. Values may hold {{secret:NAME}} handles.'),
    body: z.json().optional().describe('A string is sent as is; any other JSON value is sent as application/json. String values may hold {{secret:NAME}} handles.'),
    basic_auth: z.object({ user: z.string(), password: z.string() }).strict().optional().describe('HTTP basic credentials; either may be a {{secret:NAME}} handle.'),
    timeout_ms: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional().describe(`Milliseconds to wait for the response (default ${DEFAULT_TIMEOUT_MS}).`),
  })
  .strict()
  .superRefine((args, ctx) => {
    for (const issue of requestIssues(args)) ctx.addIssue({ code: 'custom', path: issue.path, message: `expected ${issue.message}` });
  });
