import type { EgressSender, PluginStore, PrimitiveDefinition, PrimitiveSource } from '@nodwyn/plugin-api';
import { ServerConnection, type McpTool } from './server-connection.js';
import { specDigest, type ServerSpec } from './server-spec.js';
import { resourceTools } from './resource-tools.js';
import { serverTool, type FailureLayers } from './server-tool.js';
import { modelToolName } from './tool-name.js';

/** What the set of servers needs. */
export interface ServerSetDeps extends FailureLayers {
  readonly sender: () => EgressSender | undefined;
  /** Where each server's last tool listing is kept, so its tools are known by name while it starts. */
  readonly store?: PluginStore;
  /** The egress check an HTTP server with credentials passes before each connect. */
  readonly admit?: (spec: ServerSpec) => Promise<void>;
}

interface Named {
  readonly connection: ServerConnection;
  /** The server's tool; none for the resource tools nodwyn adds. */
  readonly tool: McpTool | undefined;
  readonly definition: PrimitiveDefinition<unknown>;
}

/**
 * The running MCP servers as one primitive source: each ready server's tools under `mcp_<server>_<tool>`,
 * and those a server listed in an earlier process while it first starts. A server that is down lists no
 * tools; a call by name to a tool it had waits, bounded, for it to start or restart.
 */
export class ServerSet implements PrimitiveSource {
  readonly name = 'mcp';
  private readonly connections = new Map<string, ServerConnection>();
  private named = new Map<string, Named>();
  private readonly resourceTools = new WeakMap<ServerConnection, PrimitiveDefinition<Record<string, unknown>>[]>();

  constructor(private readonly deps: ServerSetDeps) {}

  /** Adds a server, to start with `start`. */
  add(spec: ServerSpec): ServerConnection {
    const store = this.deps.store;
    const key = `tools:${spec.source}:${spec.name}:${specDigest(spec)}`;
    const cached = store?.get(key);
    const connection = new ServerConnection(spec, {
      sender: this.deps.sender,
      changed: () => this.rename(),
      ...(this.deps.admit ? { admit: this.deps.admit } : {}),
      ...(Array.isArray(cached) ? { cached: cached as McpTool[] } : {}),
      ...(store ? { listed: (tools: readonly McpTool[]) => store.put(key, tools) } : {}),
    });
    this.connections.set(spec.name, connection);
    if (Array.isArray(cached)) this.rename();
    return connection;
  }

  /** Starts every server in the background; never waits for one. */
  start(): void {
    for (const connection of this.connections.values()) connection.start();
  }

  /** The connection of server `name`. */
  connection(name: string): ServerConnection | undefined {
    return this.connections.get(name);
  }

  /** The model's names of a server's tools, by the server's own tool names. */
  toolNames(server: string): Map<string, string> {
    const names = new Map<string, string>();
    for (const [name, entry] of this.named) if (entry.tool && entry.connection.spec.name === server) names.set(entry.tool.name, name);
    return names;
  }

  /** Resolves once every server is ready or `ms` passed. */
  async settled(ms: number): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.ready(ms)));
  }

  /**
   * Resolves once every server with no tools known yet (its first start: nothing listed in an earlier
   * process) is ready, or `ms` passed: the first turn then offers its tools. Servers with a listing are
   * not waited for; their tools are offered while they start.
   */
  async firstListed(ms: number): Promise<void> {
    await Promise.all([...this.connections.values()].filter((c) => c.tools.length === 0).map((c) => c.ready(ms)));
  }

  get(name: string): PrimitiveDefinition<unknown> | undefined {
    const entry = this.named.get(name);
    if (!entry) return undefined;
    return entry.connection.status === 'stopped' ? undefined : entry.definition;
  }

  list(): readonly PrimitiveDefinition<unknown>[] {
    // A server on its first start offers the tools it listed last time (a call waits for it); one that is down, none.
    return [...this.named.values()].filter((entry) => entry.connection.status === 'ready' || entry.connection.status === 'starting').map((entry) => entry.definition);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
  }

  /** Names every known tool again, servers in name order, so a name depends only on the servers' own lists. */
  private rename(): void {
    const named = new Map<string, Named>();
    const taken = new Set<string>();
    for (const connection of [...this.connections.values()].sort((a, b) => (a.spec.name < b.spec.name ? -1 : 1))) {
      for (const tool of connection.tools) {
        const name = modelToolName(connection.spec.name, tool.name, taken);
        taken.add(name);
        const previous = this.named.get(name);
        const kept = previous !== undefined && previous.connection === connection && previous.tool === tool;
        named.set(name, kept ? previous : { connection, tool, definition: serverTool(name, connection, tool, this.deps) as PrimitiveDefinition<unknown> });
      }
    }
    // A server's own tools keep their names; the resource tools of one that offers resources come after.
    for (const connection of [...this.connections.values()].sort((a, b) => (a.spec.name < b.spec.name ? -1 : 1))) {
      if (!connection.offersResources) continue;
      const names = { list: modelToolName(connection.spec.name, 'list_resources', taken), read: '' };
      taken.add(names.list);
      names.read = modelToolName(connection.spec.name, 'read_resource', taken);
      taken.add(names.read);
      const previous = this.resourceTools.get(connection);
      const definitions = previous && previous[0]?.name === names.list && previous[1]?.name === names.read ? previous : resourceTools(names, connection);
      this.resourceTools.set(connection, definitions);
      for (const definition of definitions) named.set(definition.name, { connection, tool: undefined, definition: definition as PrimitiveDefinition<unknown> });
    }
    this.named = named;
  }
}
