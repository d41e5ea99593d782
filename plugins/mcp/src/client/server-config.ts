import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { jsonPath, z, type ClientMcpServer, type EnvelopeError } from '@nodwyn/plugin-api';
import { mcpClientErrors } from './codes.js';
import { DEFAULT_TIMEOUT_MS, type ServerSource, type ServerSpec } from './server-spec.js';

/** Server names: what `nodwyn mcp approve NAME` takes and what the tools are prefixed with. */
export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The repository file other MCP clients read too. */
export const MCP_JSON = '.mcp.json';

/** Largest `.mcp.json` read. */
const MAX_MCP_JSON_BYTES = 1_000_000;

const Strings = z.record(z.string(), z.string());

const Entry = z
  .object({
    type: z.enum(['stdio', 'http', 'streamable-http']).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    env: Strings.default({}),
    cwd: z.string().min(1).optional(),
    url: z.string().url().optional(),
    headers: Strings.default({}),
    timeout_ms: z.number().int().min(1).max(3_600_000).optional(),
    read_only_hints: z.boolean().optional(),
  })
  .passthrough()
  .refine((e) => (e.command === undefined) !== (e.url === undefined), { message: 'either command (stdio) or url (streamable HTTP), not both' })
  .refine((e) => e.url === undefined || /^https?:$/.test(new URL(e.url).protocol), { message: 'an http or https URL', path: ['url'] });

/** A server entry that could not be read: listed with its reason, never started. */
export interface BrokenServer {
  readonly name: string;
  readonly source: ServerSource;
  readonly error: EnvelopeError;
}

/** What the config sources define. */
export interface ServerDefinitions {
  readonly servers: ServerSpec[];
  readonly broken: BrokenServer[];
}

function invalid(where: PropertyKey[], expected: string, file: string): EnvelopeError {
  return mcpClientErrors.error('MCP_CONFIG_INVALID', {
    operation: 'mcp.config',
    failed_parameter: jsonPath(where),
    expected,
    remediation: `Fix ${file} (see docs/mcp.md, "Using MCP servers").`,
  });
}

function readEntries(raw: unknown, source: ServerSource, base: PropertyKey[], file: string, workspace: string): ServerDefinitions {
  const servers: ServerSpec[] = [];
  const broken: BrokenServer[] = [];
  if (raw === undefined) return { servers, broken };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { servers, broken: [{ name: '*', source, error: invalid(base, 'a table of servers by name', file) }] };
  for (const [name, value] of Object.entries(raw)) {
    if (!SERVER_NAME.test(name)) {
      broken.push({ name, source, error: invalid([...base, name], 'a server name: letters, digits, _ . - (at most 64)', file) });
      continue;
    }
    const parsed = Entry.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      broken.push({ name, source, error: invalid([...base, name, ...issue.path], issue.message, file) });
      continue;
    }
    const e = parsed.data;
    const timeoutMs = e.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const cwd = e.cwd === undefined ? workspace : isAbsolute(e.cwd) ? e.cwd : join(workspace, e.cwd);
    const transport = e.command !== undefined ? { kind: 'stdio' as const, command: e.command, args: e.args, env: e.env, cwd } : { kind: 'http' as const, url: e.url!, headers: e.headers };
    servers.push({ name, source, transport, timeoutMs, readOnlyHints: e.read_only_hints ?? true });
  }
  return { servers, broken };
}

/** The person's servers: `[plugins."@nodwyn/plugin-mcp".servers.NAME]` in config.toml (the plugin is userOnlyConfig). */
export function personServers(section: Readonly<Record<string, unknown>>, workspace: string): ServerDefinitions {
  return readEntries(section.servers, 'config', ['plugins', '@nodwyn/plugin-mcp', 'servers'], 'config.toml', workspace);
}

/**
 * The repository's servers: `{"mcpServers": {...}}` in the workspace's `.mcp.json`. Only read for a
 * trusted workspace; each server still needs a person's approval before it starts.
 */
export function repositoryServers(workspace: string): ServerDefinitions {
  const file = join(workspace, MCP_JSON);
  if (!existsSync(file)) return { servers: [], broken: [] };
  let raw: unknown;
  try {
    const text = readFileSync(file);
    if (text.byteLength > MAX_MCP_JSON_BYTES) return { servers: [], broken: [{ name: '*', source: 'repository', error: invalid([], `at most ${MAX_MCP_JSON_BYTES} bytes`, MCP_JSON) }] };
    raw = JSON.parse(text.toString('utf8'));
  } catch {
    return { servers: [], broken: [{ name: '*', source: 'repository', error: invalid([], 'JSON', MCP_JSON) }] };
  }
  const servers = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).mcpServers : undefined;
  return readEntries(servers ?? {}, 'repository', ['mcpServers'], MCP_JSON, workspace);
}

/** Servers the person's editor handed over (ACP `session/new`), read like config entries. */
export function editorServers(servers: readonly ClientMcpServer[], workspace: string): ServerDefinitions {
  const entries = Object.fromEntries(servers.map(({ name, ...entry }) => [name, entry]));
  return readEntries(entries, 'editor', ['mcpServers'], 'the editor\'s MCP servers', workspace);
}
