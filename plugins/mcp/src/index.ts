import { definePlugin, EgressSenderToken, McpServersToken, optional, RedactorToken, TaintToken, type PluginContext } from '@nodwyn/plugin-api';
import { approvalsIn } from './client/approvals.js';
import { PLUGIN_NAME } from './client/codes.js';
import { connectChecker, connectCheckPrimitive } from './client/connect-check.js';
import { mcpCommand } from './client/mcp-command.js';
import { editorServers, personServers, repositoryServers } from './client/server-config.js';
import { ServerSet } from './client/server-set.js';

/** The package name, which is also the plugin's name in its manifest. */
export const PLUGIN = PLUGIN_NAME;

/** How long a start waits for a server never listed before, so the first turn already offers its tools. */
const FIRST_LISTING_WAIT_MS = 5_000;

// One set of servers per plugin context: a daemon loads the plugin once per workspace.
const running = new WeakMap<PluginContext, ServerSet>();

/**
 * MCP servers as guarded tools (docs/mcp.md, "Using MCP servers"): the person's servers from config.toml,
 * and a trusted workspace's `.mcp.json` servers the person approved (`nodwyn mcp approve`), each started in
 * the background; their tools come and go with them. `nodwyn mcp serve` (./server) is the other direction.
 */
export const mcpPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    // Which servers run and which secrets their headers carry: only the person's own config says.
    userOnlyConfig: true,
    description: 'MCP servers (stdio and streamable HTTP) as guarded tools; nodwyn mcp list | approve.',
    provides: ['primitive-source:mcp', 'primitive:mcp.connect', 'command:mcp', 'service:mcp.servers'],
    permissions: ['secrets.reveal', 'net', 'fs.read', 'process.spawn'],
  },
  // The egress plugin's last hop substitutes header handles; the text layers read a tool's failure message.
  deps: { sender: optional(EgressSenderToken), redactor: optional(RedactorToken), taint: optional(TaintToken) },
  register(ctx, deps) {
    const person = personServers(ctx.config, ctx.workspace);
    const trusted = ctx.trust === 'trusted';
    const repository = trusted ? repositoryServers(ctx.workspace) : { servers: [], broken: [] };
    const approvals = approvalsIn(ctx.store, ctx.workspace);
    const servers = new ServerSet({ store: ctx.store, sender: () => deps.sender, redactor: () => deps.redactor, taint: () => deps.taint, admit: connectChecker(ctx) });
    ctx.primitives.register(connectCheckPrimitive((name) => servers.connection(name)?.spec));
    running.set(ctx, servers);
    for (const spec of person.servers) servers.add(spec);
    // A repository's server runs only once the person approved exactly this definition; the person's own wins a name.
    for (const spec of repository.servers) if (!person.servers.some((p) => p.name === spec.name) && approvals.approved(spec)) servers.add(spec);
    ctx.primitives.addSource(servers);
    // The person's editor hands over its own servers (ACP session/new): the person's config still wins a name.
    ctx.services.provide(McpServersToken, {
      async attach(handed) {
        const fresh = editorServers(handed, ctx.workspace).servers.filter((spec) => servers.connection(spec.name) === undefined);
        for (const spec of fresh) servers.add(spec).start();
        await servers.firstListed(FIRST_LISTING_WAIT_MS);
      },
    });
    ctx.commands.register(
      mcpCommand({
        trust: ctx.trust,
        person: person.servers,
        broken: person.broken,
        repository: () => (trusted ? repository : repositoryServers(ctx.workspace)),
        approvals,
        running: servers,
        approvedNow: (spec) => {
          const taken = person.servers.some((p) => p.name === spec.name) || servers.connection(spec.name)?.spec === spec;
          if (trusted && !taken) servers.add(spec).start();
        },
      }),
    );
  },
  // Started once every plugin registered: the connect check needs the egress stage and `mcp.connect` in place.
  async start(ctx) {
    const servers = running.get(ctx);
    servers?.start();
    await servers?.firstListed(FIRST_LISTING_WAIT_MS);
  },
  async stop(ctx) {
    await running.get(ctx)?.stop();
    running.delete(ctx);
  },
});

export default mcpPlugin;
export { McpClientCodes } from './client/codes.js';
