import type { ClientMcpServer } from '@nodwyn/plugin-api';

type Pair = { readonly name?: unknown; readonly value?: unknown };

function pairs(list: unknown): Record<string, string> {
  if (!Array.isArray(list)) return {};
  return Object.fromEntries(list.filter((p: Pair) => typeof p?.name === 'string' && typeof p.value === 'string').map((p: Pair) => [p.name as string, p.value as string]));
}

/**
 * The MCP servers an ACP client sent with `session/new` or `session/load`, as the MCP plugin takes them:
 * stdio (`command`, `args`, `env` as name/value pairs) and streamable HTTP (`type: "http"`, `url`,
 * `headers`). SSE servers (which nodwyn's `mcpCapabilities` says it does not speak) and shapes that are
 * neither are left out.
 */
export function clientMcpServers(servers: readonly Record<string, unknown>[]): ClientMcpServer[] {
  const handed: ClientMcpServer[] = [];
  for (const server of servers) {
    const name = server.name;
    if (typeof name !== 'string') continue;
    if (server.type === 'http' && typeof server.url === 'string') handed.push({ name, url: server.url, headers: pairs(server.headers) });
    else if (server.type === undefined && typeof server.command === 'string') {
      const args = Array.isArray(server.args) ? server.args.filter((a): a is string => typeof a === 'string') : [];
      handed.push({ name, command: server.command, args, env: pairs(server.env) });
    }
  }
  return handed;
}
