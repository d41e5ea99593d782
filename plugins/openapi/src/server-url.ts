import { openApiError } from './errors.js';
import { isObject, type JsonObject } from './schema-refs.js';

/** The first server's URL with its variables at their defaults. */
function firstServer(document: JsonObject): string | undefined {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const server = servers.find(isObject);
  if (!server || typeof server.url !== 'string') return undefined;
  const variables = isObject(server.variables) ? server.variables : {};
  return server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
}

/**
 * The absolute base URL every operation's path is appended to (no trailing slash): `baseUrl` when the
 * person gave one, else the document's first server. A relative or templated server without a base URL
 * is an envelope: the egress stage checks hosts, so a tool must know exactly where it sends.
 */
export function serverUrl(document: JsonObject, options: { readonly baseUrl?: string; readonly file: string }): string {
  const raw = options.baseUrl ?? firstServer(document);
  let url: URL | undefined;
  try {
    url = raw === undefined || /\{/.test(raw) ? undefined : new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw openApiError('OPENAPI_SERVER_MISSING', {
      operation: 'openapi.load',
      failed_parameter: options.baseUrl === undefined ? '$.servers[0].url' : 'base_url',
      received_value: raw,
      expected: 'an absolute http(s) URL',
      remediation: `${options.file} names no absolute server URL. Add the API with --base-url https://host/prefix.`,
    });
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
