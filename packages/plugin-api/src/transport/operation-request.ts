import type { OutgoingRequest } from '../egress.js';
import type { CallArgs } from './operation-preflight.js';
import { isSensitiveParam, REDACTED, redactBody } from './operation-redaction.js';
import type { OperationDescriptor } from './operation-types.js';

/** A request rendered from an operation and its checked arguments, before credentials and key are added. */
export interface RenderedRequest extends OutgoingRequest {
  /** The body as data (JSON value or form fields), for a preview; undefined without a body. */
  readonly bodyValue?: unknown;
}

/**
 * RFC 3986 percent-encoding of one path segment or query component: everything but the unreserved
 * characters (ALPHA, DIGIT, "-", ".", "_", "~") is encoded, so "/" in an identifier stays inside its
 * segment and "&" or "=" inside its query value.
 */
export function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Renders the request: path parameters into the URL template, query parameters appended (an array
 * repeats its name), header parameters, the body as JSON or a form. With `redact`, sensitive values
 * read REDACTED (unencoded, so a person can see where they were): the rendering previews show.
 */
export function renderRequest(operation: OperationDescriptor, args: CallArgs, redact = false): RenderedRequest {
  const hidden = new Set(redact ? operation.params.filter((param) => isSensitiveParam(operation, param)).map((param) => param.name) : []);
  const shown = (name: string, value: unknown): string => (hidden.has(name) ? REDACTED : String(value));
  const encode = (name: string, value: unknown): string => (hidden.has(name) ? REDACTED : encodeRfc3986(String(value)));
  const [template = '', fixedQuery] = operation.url.split('?', 2);
  const path = template.replace(/\{([^{}]+)\}/g, (whole, name: string) => (args[name] === undefined ? whole : encode(name, args[name])));
  const query: string[] = fixedQuery === undefined || fixedQuery === '' ? [] : [fixedQuery];
  const headers: [string, string][] = [];
  for (const param of operation.params) {
    const value = args[param.name];
    if (value === undefined) continue;
    if (param.in === 'query') for (const item of Array.isArray(value) ? value : [value]) query.push(`${encodeRfc3986(param.name)}=${encode(param.name, item)}`);
    if (param.in === 'header') headers.push([param.name, shown(param.name, value)]);
  }
  const url = query.length === 0 ? path : `${path}?${query.join('&')}`;
  headers.push(['accept', operation.stream === undefined ? 'application/json' : 'text/event-stream']);
  if (operation.body === undefined || args.body === undefined) return { method: operation.method, url, headers };
  const bodyValue = redact ? redactBody(operation, args.body) : args.body;
  headers.push(['content-type', operation.body.mediaType]);
  return { method: operation.method, url, headers, body: encodeBody(operation.body.mediaType, bodyValue), bodyValue };
}

function encodeBody(mediaType: string, value: unknown): string {
  if (mediaType === 'application/json') return JSON.stringify(value);
  const form = new URLSearchParams();
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    for (const item of Array.isArray(field) ? field : [field]) if (item !== undefined) form.append(key, String(item));
  }
  return form.toString();
}
