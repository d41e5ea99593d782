import type { Confirmer, ToolProgress } from '@nodwyn/plugin-api';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema, type CallToolResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { callToolResult } from './call-result.js';
import { elicitationConfirmer } from './elicitation-confirmer.js';
import { progressTicker, PROGRESS_INTERVAL_MS, type CallProgress } from './progress.js';
import { listingKey, mcpTool } from './tool-listing.js';
import type { McpToolHost, McpToolSession } from './tool-host.js';

/** The server's name and version in `initialize`. */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
}

/** Tuning of one server; the defaults suit a person's client. */
export interface McpServerOptions {
  /** Between progress ticks of a running call. */
  readonly progressIntervalMs?: number;
  /** Between checks whether the tool list changed (tools that come and go: capabilities, MCP servers). */
  readonly listCheckMs?: number;
  /** How long a confirmation waits for the client's answer. */
  readonly confirmTimeoutMs?: number;
}

const LIST_CHECK_MS = 5000;
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

/** The calls each server is running, so a transport that ends can let them answer first. */
const running = new WeakMap<Server, Set<Promise<unknown>>>();

/** Resolves once every `tools/call` the server was running when asked has ended (answered or failed). */
export async function callsSettled(server: Server): Promise<void> {
  await Promise.allSettled([...(running.get(server) ?? [])]);
}

/**
 * One MCP server for ONE connection (the SDK binds a server to one transport): `tools/list` lists the
 * host's model-visible tools fresh each time, with honest annotations; `tools/call` runs the call in the
 * connection's nodwyn session through the guard, confirmations as MCP elicitation when the client declared
 * it, progress while it runs when the request carries a progress token, and the request's cancellation
 * aborting it. When the listing changes after the client listed, it is told (`notifications/tools/
 * list_changed`), checked after every call and every `listCheckMs`.
 */
export function createMcpServer(host: McpToolHost, info: McpServerInfo, options: McpServerOptions = {}): Server {
  const server = new Server({ name: info.name, version: info.version }, { capabilities: { tools: { listChanged: true } } });
  let session: McpToolSession | undefined;
  const calls = new Set<Promise<unknown>>();
  running.set(server, calls);
  let listed: string | undefined;
  const client = (): string => server.getClientVersion()?.name ?? 'unknown client';

  const checkListing = (): void => {
    if (listed === undefined) return;
    const now = listingKey(host.tools());
    if (now === listed) return;
    listed = now;
    server.sendToolListChanged().catch(() => undefined);
  };
  const timer = setInterval(checkListing, options.listCheckMs ?? LIST_CHECK_MS);
  timer.unref();
  const closed = server.onclose;
  server.onclose = () => {
    clearInterval(timer);
    closed?.();
  };

  server.setRequestHandler(ListToolsRequestSchema, () => {
    const tools = host.tools();
    listed = listingKey(tools);
    return { tools: tools.map(mcpTool) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    session ??= host.session({ name: client(), version: server.getClientVersion()?.version ?? '' });
    const progress = progressFor(request.params._meta?.progressToken, extra, name, options);
    const confirmer = server.getClientCapabilities()?.elicitation ? askingConfirmer(extra, client(), options) : undefined;
    const calling = session.call({ name, args: args ?? {}, signal: extra.signal, ...(confirmer ? { confirmer } : {}), ...(progress ? { progress: progress.report } : {}) });
    calls.add(calling);
    try {
      return callToolResult(await calling);
    } finally {
      calls.delete(calling);
      progress?.stop();
      checkListing();
    }
  });
  return server;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Progress for a request that asked for it (`_meta.progressToken`). */
function progressFor(token: string | number | undefined, extra: Extra, name: string, options: McpServerOptions): CallProgress | undefined {
  if (token === undefined) return undefined;
  const send = (update: ToolProgress) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...update } });
  return progressTicker(send, name, options.progressIntervalMs ?? PROGRESS_INTERVAL_MS);
}

/** Confirmations as elicitation requests tied to the call being served, so HTTP sends them on its stream. */
function askingConfirmer(extra: Extra, client: string, options: McpServerOptions): Confirmer {
  const timeout = options.confirmTimeoutMs ?? CONFIRM_TIMEOUT_MS;
  return elicitationConfirmer((params, signal) => extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema, { signal: signal ?? extra.signal, timeout }), client);
}
