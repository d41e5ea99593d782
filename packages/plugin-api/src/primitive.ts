import type { z } from 'zod';
import type { Envelope } from '@nodwyn/protocol';
import type { EgressTarget } from './egress.js';
import type { ProtectedFolder } from './workspace-paths.js';
import type { WorkspaceFiles } from './workspace-files.js';

/** How much harm a call can do. `destructive` and `irreversible` need a confirmation. */
export type Tier = 'read' | 'mutate' | 'destructive' | 'irreversible';
/** The tiers, from least to most dangerous. */
export const TIERS: readonly Tier[] = ['read', 'mutate', 'destructive', 'irreversible'];

/** `model`: offered to the model as a tool. `host`: for loop strategies and sandboxed code. */
export type Visibility = 'model' | 'host';

/**
 * What a tool does, as the Agent Client Protocol names it for front ends (an icon, how a call is shown):
 * `read`, `edit`, `delete`, `move`, `search`, `execute`, `think`, `fetch`, or `other`.
 */
export type ToolKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'other';
/** Every tool kind. */
export const TOOL_KINDS: readonly ToolKind[] = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'other'];

/** What a primitive's `effect` function may know besides the arguments. */
export interface EffectScope {
  /** The workspace root, a real path, that relative paths in the arguments are read against. */
  readonly workspace: string;
}

/** Names the model sees must be provider-safe. */
export const MODEL_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** Host primitives are `area.verb`. */
export const HOST_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** What a primitive returns: the text the model sees, plus optional structured data for host callers. */
export interface ToolResult {
  /** Text shown to the model (after the ingress text layers). */
  readonly content: string;
  /** Structured result for host callers; never shown to the model. */
  readonly data?: unknown;
  /** Taint tags carried by this result (sorted, unique). */
  readonly taint?: readonly string[];
}

/** The outcome of a guarded call: a result or an envelope, never both. */
export type ApplyResult =
  | { readonly ok: true; readonly content: string; readonly data?: unknown; readonly truncated: boolean; readonly taint: readonly string[] }
  | { readonly ok: false; readonly envelope: Envelope; readonly stage: string };

/**
 * How far a long call has got, as the tool reports it (an MCP server's `notifications/progress`, a build's
 * steps). `progress` grows with each report; `total`, when known, is where it ends. Front ends show it.
 */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** What a handler knows about the call it serves. */
export interface PrimitiveCallContext {
  readonly session: string;
  readonly callId: string;
  /** The workspace root, a real path (symlinks resolved). */
  readonly workspace: string;
  /**
   * nodwyn's own folders outside the workspace's `.nodwyn/` (data and config folders), which file tools
   * must refuse; the composition root names them. Check with `realProtectedFolders` + `protectedFolderOf`.
   */
  readonly protectedFolders?: readonly ProtectedFolder[];
  /** Aborted on cancel and on timeout; long work must stop when it fires. */
  readonly signal: AbortSignal;
  /** Largest `content` the kernel keeps; longer output is cut by the kernel anyway. */
  readonly outputCap: number;
  /** Taint tags the call's inputs carry; a nested call inherits them. */
  readonly taint: readonly string[];
  /**
   * Where file tools read and write text when a front end serves the workspace's files (an editor's unsaved
   * buffers); absent, they use the disk. Every path check still runs first. Nested calls inherit it.
   */
  readonly files?: WorkspaceFiles;
  /**
   * Reports how far the call has got; the kernel passes the message through the text layers and on to the
   * front ends as a `tool.progress` event. Absent when nobody listens (host calls, tests).
   */
  readonly progress?: (update: ToolProgress) => void;
  /** Makes a nested call through the guard (for host primitives that compose others); `taint` adds tags. */
  apply(name: string, args: unknown, options?: { taint?: readonly string[] }): Promise<ApplyResult>;
}

/** A primitive's definition, as a plugin registers it. The kernel adds the owner. */
export interface PrimitiveDefinition<I = unknown> {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodType<I>;
  readonly output?: z.ZodType;
  /** The most dangerous thing the primitive can do; shown in listings. */
  readonly tier: Tier;
  /** Tier of one call, when it depends on the arguments (never above `tier`). */
  readonly classify?: (args: I) => Tier;
  readonly visibility: Visibility;
  /** What the tool does, for front ends; `other` when not given. */
  readonly kind?: ToolKind;
  /**
   * What an "always" answer to a confirmation of this call covers for the rest of the session, e.g.
   * `shell:git commit`, `edit:/abs/folder`, `http:POST api.example.com`; without it, the primitive's name
   * (every call of it). Keep it as narrow as what a person would think they allowed. A function that throws
   * makes the call's effect its exact arguments, so a broken effect never widens an approval.
   */
  readonly effect?: (args: I, scope: EffectScope) => string;
  /** True when the primitive sends data off the machine; the egress stage inspects it. */
  readonly egress?: boolean;
  /** The requests a call will send, for the egress stage to check before it runs. */
  readonly egressTargets?: (args: I) => readonly EgressTarget[];
  /**
   * What a call would do, for the person asked to confirm it (a destructive or irreversible call, or one
   * a stage wants confirmed): one short line per effect, e.g. the request it sends and what the API's
   * manifest says it changes. The guard shows them with the question; a preview that throws shows none.
   */
  readonly preview?: (args: I) => { readonly effects: readonly string[] };
  /** Default timeout of one call, in milliseconds. */
  readonly timeoutMs?: number;
  readonly handler: (args: I, context: PrimitiveCallContext) => Promise<ToolResult> | ToolResult;
}

/** A registered primitive as others see it. */
export interface PrimitiveInfo {
  readonly name: string;
  readonly description: string;
  readonly tier: Tier;
  readonly visibility: Visibility;
  /** What the tool does (`other` when its definition says nothing). */
  readonly kind: ToolKind;
  readonly owner: string;
  readonly egress: boolean;
  /** JSON Schema of the input. */
  readonly inputSchema: Record<string, unknown>;
}

/**
 * Helper that keeps the input type of a definition: `definePrimitive({ input: z.object(...), handler })`.
 */
export function definePrimitive<I>(definition: PrimitiveDefinition<I>): PrimitiveDefinition<I> {
  return definition;
}

/**
 * Primitives whose set changes while nodwyn runs (the capabilities a model registered): the kernel asks
 * the source on every lookup and listing, so a new entry is a real tool from the next turn on. A source
 * cannot shadow a registered primitive: on a name clash the registered one wins.
 */
export interface PrimitiveSource {
  /** Names the source in listings and manifests (`primitive-source:<name>`). */
  readonly name: string;
  /** The entry of that name, or undefined. */
  get(name: string): PrimitiveDefinition<unknown> | undefined;
  /** Every entry now. */
  list(): readonly PrimitiveDefinition<unknown>[];
}
