import type { PreparedRequest } from './request.js';
import { fullUrl } from './request.js';
import type { WireRequest } from './send.js';

/** The request as fetch takes it: basic auth as a header, a JSON body serialized and typed. */
export function toWire(request: PreparedRequest): WireRequest {
  const headers: [string, string][] = request.headers.map(([name, value]) => [name, value]);
  if (request.basic) headers.push(['Authorization', `Basic ${Buffer.from(`${request.basic.user}:${request.basic.password}`, 'utf8').toString('base64')}`]);
  const typed = headers.some(([name]) => name.toLowerCase() === 'content-type');
  if (request.body.kind === 'json' && !typed) headers.push(['Content-Type', 'application/json']);
  const body = request.body.kind === 'text' ? request.body.text : request.body.kind === 'json' ? JSON.stringify(request.body.value) : undefined;
  return { method: request.method, url: fullUrl(request), headers, ...(body === undefined ? {} : { body }) };
}
