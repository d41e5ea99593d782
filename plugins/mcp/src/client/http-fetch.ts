import { AsyncLocalStorage } from 'node:async_hooks';
import { sendThroughEgress, type EgressSender } from '@nodwyn/plugin-api';
import { mcpClientErrors } from './codes.js';

/** The session of the tool call being served, for the egress sender (one connection serves every session). */
export const calling = new AsyncLocalStorage<string>();

/** What `fetch` the SDK's streamable HTTP transport is given. */
export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new TypeError('mcp: the transport sent a body that is neither text nor bytes');
}

/**
 * The transport's last hop: a request whose headers hold a `{{secret:NAME}}` handle goes through the egress
 * plugin's sender, which substitutes the value (the guard's egress stage checked the tool's targets before
 * the call ran); one without goes out with the platform's fetch. The secret value never passes here.
 */
export function lastHop(server: string, sender: () => EgressSender | undefined): McpFetch {
  return async (url, init = {}) => {
    const body = bodyOf(init.body);
    const request = { method: init.method ?? 'GET', url: String(url), headers: [...new Headers(init.headers).entries()], ...(body !== undefined ? { body } : {}) };
    return sendThroughEgress(request, {
      sender: sender(),
      session: calling.getStore() ?? 'mcp',
      signal: init.signal ?? undefined,
      direct: () => fetch(url, init),
      missing: () =>
        mcpClientErrors.error('MCP_SENDER_MISSING', {
          operation: 'mcp.connect',
          remediation: `The MCP server ${server} has a {{secret:NAME}} header but no egress plugin is loaded to substitute it. Enable the egress plugin.`,
        }),
    });
  };
}
