import type { Tier, ToolKind } from '@nodwyn/plugin-api';

/** MCP tool annotations (hints, which the server sets and nodwyn does not trust to lower a tier). */
export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * The tier of an MCP tool. Hints count only where they ask for more care: `destructiveHint: true` is
 * destructive whatever else it says; only `readOnlyHint: true` (and no destructive hint) makes a read;
 * everything else is a mutate. MCP's own default for `destructiveHint` (true) is not taken: a server that
 * says nothing gets mutate, the tier of any tool that may change something, not a confirmation per call.
 */
export function tierOf(annotations: ToolAnnotations | undefined): Tier {
  if (annotations?.destructiveHint === true) return 'destructive';
  if (annotations?.readOnlyHint === true) return 'read';
  return 'mutate';
}

/** The tool kind front ends show. */
export function kindOf(tier: Tier, annotations: ToolAnnotations | undefined): ToolKind {
  if (tier === 'destructive') return 'delete';
  if (tier === 'read') return annotations?.openWorldHint === true ? 'fetch' : 'read';
  return 'other';
}

/** Whether calls may reach beyond the server itself (`openWorldHint`), for the egress stage. */
export function opensWorld(annotations: ToolAnnotations | undefined): boolean {
  return annotations?.openWorldHint === true;
}
