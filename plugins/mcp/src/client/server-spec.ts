import { createHash } from 'node:crypto';

/**
 * Where a server's definition came from: the person's config, the workspace's `.mcp.json`, or the
 * person's editor (ACP `session/new`), whose servers are the person's own like config's.
 */
export type ServerSource = 'config' | 'repository' | 'editor';

/** Where each source is named for a person. */
export const SOURCE_LABEL: Readonly<Record<ServerSource, string>> = { config: 'your config', repository: '.mcp.json', editor: 'your editor' };

/** A server the client starts as a child process and talks to over stdin/stdout. */
export interface StdioTransportSpec {
  readonly kind: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server the client reaches over streamable HTTP; header values may hold `{{secret:NAME}}` handles. */
export interface HttpTransportSpec {
  readonly kind: 'http';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** One MCP server as configured. */
export interface ServerSpec {
  readonly name: string;
  readonly source: ServerSource;
  readonly transport: StdioTransportSpec | HttpTransportSpec;
  /** Longest a call may take before it ends with a TIMEOUT envelope. */
  readonly timeoutMs: number;
  /**
   * Whether a tool's `readOnlyHint` makes it a read (the default). False: the person does not take the
   * server at its word, and every tool is at least a mutate (`destructiveHint` still makes it destructive).
   */
  readonly readOnlyHints: boolean;
}

/** Default per-call timeout. */
export const DEFAULT_TIMEOUT_MS = 60_000;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * sha256 of what the server runs or reaches (command, args, env, cwd, or url and headers): an approval
 * covers exactly this definition, so a changed one asks again.
 */
export function specDigest(spec: ServerSpec): string {
  return createHash('sha256').update(canonical(spec.transport)).digest('hex');
}

/** One line naming what the server runs or reaches, for listings and the approval question. */
export function describeTransport(spec: ServerSpec): string {
  const t = spec.transport;
  if (t.kind === 'http') return t.url;
  return [t.command, ...t.args].map((word) => (/^[\w./:=@-]+$/.test(word) ? word : JSON.stringify(word))).join(' ');
}
