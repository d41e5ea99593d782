import { z, type PrimitiveDefinition } from '@nodwyn/plugin-api';
import { callFailure } from './call-failure.js';
import { serverTargets } from './connect-check.js';
import { calling } from './http-fetch.js';
import { WAIT_MS, type McpResource, type ServerConnection } from './server-connection.js';
import { resourceText } from './tool-result.js';

/** Resources listed in one answer at most; a server with more says how many were left out. */
const MAX_LISTED = 500;

function line(resource: McpResource): string {
  const label = resource.title ?? resource.name;
  const about = [label && label !== resource.uri ? label : undefined, resource.mimeType, resource.description].filter(Boolean).join(' · ');
  return about ? `${resource.uri} — ${about}` : resource.uri;
}

/**
 * The two read tools of a server that offers resources: `mcp_<server>_list_resources` and
 * `mcp_<server>_read_resource`. Their answers are tool results, so they pass the ingress text layers (and a
 * resource holding a remembered secret is withheld) like any tool's; reading never changes anything.
 */
export function resourceTools(names: { readonly list: string; readonly read: string }, connection: ServerConnection): PrimitiveDefinition<Record<string, unknown>>[] {
  const server = connection.spec.name;
  const http = connection.spec.transport.kind === 'http';
  const shared = {
    tier: 'read' as const,
    visibility: 'model' as const,
    kind: http ? ('fetch' as const) : ('read' as const),
    egress: http,
    ...(http ? { egressTargets: () => serverTargets(connection.spec) } : {}),
    timeoutMs: connection.spec.timeoutMs + WAIT_MS + 1_000,
  };
  const failed = (operation: string, tool: string) => ({ server, tool, operation, tier: 'read' as const, timeoutMs: connection.spec.timeoutMs });
  const list: PrimitiveDefinition<Record<string, unknown>> = {
    ...shared,
    name: names.list,
    description: `Lists the resources (files, records, documents) MCP server ${server} offers, a URI per line, to read with ${names.read}.`,
    input: z.object({}).strict(),
    effect: () => `mcp:${server} resources/list`,
    handler: (_args, call) =>
      calling.run(call.session, async () => {
        const resources = await connection.listResources(call.signal).catch((error: unknown) => {
          throw callFailure(error, failed(names.list, 'resources/list'));
        });
        if (resources.length === 0) return { content: `MCP server ${server} lists no resources.` };
        const shown = resources.slice(0, MAX_LISTED).map(line);
        if (resources.length > MAX_LISTED) shown.push(`… ${resources.length - MAX_LISTED} more not shown`);
        return { content: shown.join('\n'), data: { resources: resources.slice(0, MAX_LISTED) } };
      }),
  };
  const read: PrimitiveDefinition<Record<string, unknown>> = {
    ...shared,
    name: names.read,
    description: `Reads one resource of MCP server ${server} by its URI (as ${names.list} lists them).`,
    input: z.object({ uri: z.string().min(1).max(2048).describe('The resource URI, e.g. file:///notes/a.md') }).strict(),
    effect: (args) => `mcp:${server} resources/read ${String(args.uri)}`,
    handler: (args, call) =>
      calling.run(call.session, async () => {
        const contents = await connection.readResource(String(args.uri), call.signal).catch((error: unknown) => {
          throw callFailure(error, failed(names.read, 'resources/read'));
        });
        return { content: contents.map(resourceText).join('\n') || `[resource ${String(args.uri)} is empty]` };
      }),
  };
  return [list, read];
}
