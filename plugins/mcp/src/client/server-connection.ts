import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isEnvelopeError, type EgressSender, type ToolProgress } from '@nodwyn/plugin-api';
import { isTransportFailure } from './call-failure.js';
import { mcpClientErrors } from './codes.js';
import { carriesSecrets } from './connect-check.js';
import { lastHop } from './http-fetch.js';
import { restartDelay } from './restart-delay.js';
import type { ServerSpec } from './server-spec.js';
import type { McpCallResult } from './tool-result.js';
import type { ToolAnnotations } from './tool-tier.js';

/** `starting`: first connect under way; `restarting`: down, waiting out its backoff or reconnecting. */
export type ServerStatus = 'starting' | 'ready' | 'restarting' | 'stopped';

/** A tool as the server lists it. */
export interface McpTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations?: ToolAnnotations;
}

/** A resource as the server lists it. */
export interface McpResource {
  readonly uri: string;
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** One part of a read resource: text, or binary data in base64. */
export interface McpResourceContents {
  readonly uri?: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}

/** What a connection needs besides its server. */
export interface ConnectionDeps {
  readonly sender: () => EgressSender | undefined;
  /** Called when the server's status or tool list changed. */
  readonly changed: () => void;
  /** The tools the server listed last time (an earlier process), known by name while it starts. */
  readonly cached?: readonly McpTool[];
  /** Keeps a new listing for the next start. */
  readonly listed?: (tools: readonly McpTool[]) => void;
  /** Puts a server whose requests carry credentials before the guard's egress stage; throws to refuse it. */
  readonly admit?: (spec: ServerSpec) => Promise<void>;
}

/** One call of a tool. */
export interface ToolCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly signal: AbortSignal;
  readonly progress?: (update: ToolProgress) => void;
}

/** A connection that lived this long starts its backoff afresh when it breaks. */
const HEALTHY_MS = 30_000;
/** Longest the `initialize` handshake and a `tools/list` may take. */
const HANDSHAKE_MS = 30_000;
/** Longest a call waits for a server that is starting or restarting (on top of the call's own timeout). */
export const WAIT_MS = 10_000;
/** Longest a ping may take when a timed-out call makes nodwyn ask whether the server hangs. */
const PING_MS = 2_000;
/** Pages of `tools/list` read at most. */
const MAX_PAGES = 50;
/** Bytes of the server's stderr kept for `nodwyn mcp list`. */
const STDERR_TAIL = 2_000;

function message(error: unknown): string {
  return (isEnvelopeError(error) ? error.envelope.remediation : error instanceof Error ? error.message : String(error)).slice(0, 300);
}

/**
 * One MCP server: started in the background, its tools listed (and listed again on
 * `notifications/tools/list_changed`), restarted with backoff when it fails or exits, stopped with the
 * plugin. The SDK is imported on the first connect, so a person without servers never loads it.
 */
export class ServerConnection {
  status: ServerStatus = 'starting';
  /** The tools of the last listing; kept while the server restarts, so a call can wait for it. */
  tools: readonly McpTool[] = [];
  /** Why the last connect failed or the connection broke. */
  lastError: string | undefined;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private generation = 0;
  private attempt = 0;
  private connectedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<() => void>();
  private stderr = '';
  /** Why nodwyn closed the connection itself, for `lastError`. */
  private reason: string | undefined;

  constructor(
    readonly spec: ServerSpec,
    private readonly deps: ConnectionDeps,
  ) {
    this.tools = deps.cached ?? [];
  }

  /** Starts connecting; never throws. */
  start(): void {
    void this.connect();
  }

  /** The process id of a stdio server while it runs. */
  get pid(): number | undefined {
    const transport = this.transport as { pid?: number | null } | undefined;
    return transport?.pid ?? undefined;
  }

  /** What the server wrote to stderr last (stdio servers). */
  get stderrTail(): string {
    return this.stderr;
  }

  /** Resolves true once the server is ready, false after `ms` or when it stops. */
  ready(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (this.status === 'ready') return Promise.resolve(true);
    if (this.status === 'stopped' || ms <= 0 || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve(this.status === 'ready');
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  /** Calls a tool; a server down for longer than the wait is an UPSTREAM_UNAVAILABLE envelope. */
  async call(call: ToolCall): Promise<McpCallResult> {
    const progress = call.progress;
    const result = await this.request(call.signal, (client, options) =>
      client.callTool({ name: call.tool, arguments: call.args }, undefined, {
        ...options,
        ...(progress ? { onprogress: (p: { progress: number; total?: number; message?: string }) => progress({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) }) } : {}),
      }),
    );
    return result as McpCallResult;
  }

  /** Lists the server's resources (`resources/list`, every page up to a bound). */
  async listResources(signal: AbortSignal): Promise<McpResource[]> {
    const resources: McpResource[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const listed = await this.request(signal, (client, options) => client.listResources(cursor === undefined ? {} : { cursor }, options));
      resources.push(...(listed.resources as McpResource[]));
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return resources;
  }

  /** Reads one resource (`resources/read`). */
  async readResource(uri: string, signal: AbortSignal): Promise<readonly McpResourceContents[]> {
    const read = await this.request(signal, (client, options) => client.readResource({ uri }, options));
    return read.contents as McpResourceContents[];
  }

  /** Whether the server declared resources in its capabilities. */
  get offersResources(): boolean {
    return this.status === 'ready' && this.client?.getServerCapabilities()?.resources !== undefined;
  }

  /**
   * One request on the ready client, within the server's timeout and the caller's signal. A transport that
   * failed (an HTTP server restarted, a pipe broke) is connected anew, with backoff; a request that ran out
   * of time may mean the server hangs as a whole: it is pinged, and restarted if it does not answer.
   */
  private async request<T>(signal: AbortSignal, send: (client: Client, options: { signal: AbortSignal; timeout: number }) => Promise<T>): Promise<T> {
    if (this.status !== 'ready') await this.ready(WAIT_MS, signal);
    const client = this.client;
    if (this.status !== 'ready' || !client) {
      throw mcpClientErrors.error('MCP_SERVER_UNAVAILABLE', {
        operation: `mcp.${this.spec.name}`,
        retryable: 'after_delay',
        retry_after_ms: 2000,
        remediation: `The MCP server ${this.spec.name} is not running${this.lastError ? ` (${this.lastError})` : ''}; nodwyn keeps restarting it. Try again shortly, or see \`nodwyn mcp list\`.`,
      });
    }
    return send(client, { signal, timeout: this.spec.timeoutMs }).catch((error: unknown) => {
      if (!signal.aborted && isTransportFailure(error)) void this.drop(client, message(error));
      else if ((error as { code?: unknown } | null)?.code === -32001 || signal.aborted) void this.probe(client);
      throw error;
    });
  }

  /** Stops the server for good (plugin stop). */
  async stop(): Promise<void> {
    this.status = 'stopped';
    this.generation += 1;
    clearTimeout(this.timer);
    this.wake();
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
    await this.transport?.close().catch(() => undefined);
  }

  private async drop(client: Client, why: string): Promise<void> {
    if (client !== this.client) return;
    this.reason = why;
    await client.close().catch(() => undefined);
  }

  private async probe(client: Client): Promise<void> {
    if (client !== this.client) return;
    try {
      await client.ping({ timeout: PING_MS });
    } catch {
      if (client !== this.client) return;
      this.reason = `it did not answer a ping within ${PING_MS} ms and was restarted`;
      await client.close().catch(() => undefined);
    }
  }

  private async openTransport(): Promise<Transport> {
    const t = this.spec.transport;
    if (t.kind === 'stdio') {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const transport = new StdioClientTransport({ command: t.command, args: [...t.args], env: { ...t.env }, ...(t.cwd ? { cwd: t.cwd } : {}), stderr: 'pipe' });
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      return transport;
    }
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(new URL(t.url), { fetch: lastHop(this.spec.name, this.deps.sender), requestInit: { headers: { ...t.headers } } });
  }

  private async connect(): Promise<void> {
    if (this.status === 'stopped') return;
    const generation = ++this.generation;
    let client: Client | undefined;
    try {
      const [{ Client }, { ToolListChangedNotificationSchema }] = await Promise.all([
        import('@modelcontextprotocol/sdk/client/index.js'),
        import('@modelcontextprotocol/sdk/types.js'),
      ]);
      if (carriesSecrets(this.spec)) {
        if (!this.deps.admit) throw new Error('its headers carry a secret handle and nothing can check where it may go');
        await this.deps.admit(this.spec);
      }
      client = new Client({ name: 'nodwyn', version: '0.1.0' }, { capabilities: {} });
      const current = client;
      current.onclose = () => this.closed(current);
      current.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.list(current).catch(() => undefined));
      this.transport = await this.openTransport();
      await current.connect(this.transport, { timeout: HANDSHAKE_MS });
      if (generation !== this.generation) {
        await current.close();
        return;
      }
      this.client = current;
      await this.list(current);
      // The server went away while listing: closed() has scheduled the restart.
      if (generation !== this.generation || this.client !== current) return;
      this.status = 'ready';
      this.lastError = undefined;
      this.connectedAt = Date.now();
      this.wake();
      this.deps.changed();
    } catch (error) {
      if (generation !== this.generation) return;
      this.lastError = message(error);
      this.client = undefined;
      await client?.close().catch(() => undefined);
      this.restartLater();
    }
  }

  private async list(client: Client): Promise<void> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const listed = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: HANDSHAKE_MS });
      tools.push(...(listed.tools as McpTool[]));
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    if (client !== this.client) return;
    this.tools = tools;
    this.deps.listed?.(tools);
    this.deps.changed();
  }

  /** The connection broke (the process exited, the HTTP session ended, or a hung server was closed). */
  private closed(client: Client): void {
    if (client !== this.client || this.status === 'stopped') return;
    this.client = undefined;
    if (Date.now() - this.connectedAt >= HEALTHY_MS) this.attempt = 0;
    this.lastError = this.reason ?? 'it exited or closed the connection';
    this.reason = undefined;
    this.restartLater();
    this.deps.changed();
  }

  private restartLater(): void {
    if (this.status === 'stopped') return;
    this.status = 'restarting';
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connect(), restartDelay(this.attempt));
    this.timer.unref();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
