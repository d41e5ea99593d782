import type { PrimitiveInfo } from '@nodwyn/plugin-api';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** "read_file" → "Read file": the human title MCP clients show. */
export function toolTitle(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words === '' ? name : words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A model-visible primitive as an MCP tool, its four annotations set from what the kernel knows, never
 * guessed: `readOnlyHint` is the read tier; `destructiveHint` the destructive and irreversible tiers;
 * `idempotentHint` only reads (a repeated mutation may do more); `openWorldHint` the primitive's egress
 * flag (it may reach hosts outside the machine). The tier and owning plugin ride along in `_meta`.
 */
export function mcpTool(info: PrimitiveInfo): Tool {
  const title = toolTitle(info.name);
  const read = info.tier === 'read';
  return {
    name: info.name,
    title,
    description: info.description,
    inputSchema: objectSchema(info.inputSchema),
    annotations: {
      title,
      readOnlyHint: read,
      destructiveHint: info.tier === 'destructive' || info.tier === 'irreversible',
      idempotentHint: read,
      openWorldHint: info.egress,
    },
    _meta: { 'nodwyn/tier': info.tier, 'nodwyn/plugin': info.owner },
  };
}

/** MCP wants an object schema; one of another shape is put under `type: "object"` as it is. */
function objectSchema(schema: Record<string, unknown>): Tool['inputSchema'] {
  return (schema.type === 'object' ? schema : { ...schema, type: 'object' }) as Tool['inputSchema'];
}

/** A cheap fingerprint of a listing, to tell whether the tools changed since a client last listed them. */
export function listingKey(tools: readonly PrimitiveInfo[]): string {
  return JSON.stringify(tools.map((t) => [t.name, t.tier, t.egress, t.description, t.inputSchema]));
}
