import {
  client,
  methods,
  PROTOCOL_VERSION,
  type ClientApp,
  type ContentBlock,
  type InitializeRequest,
  type InitializeResponse,
  type NewSessionResponse,
  type PromptResponse,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type Stream,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import {
  AttachParamsSchema,
  AttachResultSchema,
  ConfirmationAnswerParamsSchema,
  ConfirmationAnswerResultSchema,
  DetachParamsSchema,
  FilesCompleteParamsSchema,
  FilesCompleteResultSchema,
  ForkParamsSchema,
  ForkResultSchema,
  PromptHistoryParamsSchema,
  PromptHistoryResultSchema,
  ProvidersConfigureParamsSchema,
  ProvidersConfigureResultSchema,
  ProvidersListParamsSchema,
  ProvidersListResultSchema,
  NODWYN_METHODS,
  SessionsListParamsSchema,
  SessionsListResultSchema,
  type ClientEvent,
  type ConnectionState,
  type FrontendClient,
  type PermissionHandler,
  type ProviderChoice,
  type SessionSummary,
} from '@nodwyn/protocol';
import { backoffDelay, reconnectPolicy, sleep, type ReconnectOptions, type ReconnectPolicy } from './backoff.js';
import { ConsoleApi } from './console-api.js';
import { EventFeed } from './event-feed.js';
import { endLink, openLink, type Link } from './link.js';
import { answerPermission } from './permission.js';
import { clientError, type ProtocolError } from './protocol-error.js';
import { messageOf, requestFailure } from './request-failure.js';
import { checkParams, checkResult } from './schema-check.js';

/** Answers the agent's file reads and writes (ACP's `fs/…`), so the model sees an editor's unsaved buffers. */
export interface FsHandlers {
  readTextFile(request: ReadTextFileRequest, signal: AbortSignal): Promise<ReadTextFileResponse>;
  writeTextFile(request: WriteTextFileRequest, signal: AbortSignal): Promise<void>;
}

/** What every way of connecting takes. */
export interface ClientOptions {
  /** Who the client is, sent as `initialize`'s `clientInfo`. */
  readonly clientInfo: { readonly name: string; readonly version: string; readonly title?: string };
  /** Given, the client declares the `fs` capabilities and answers `fs/read_text_file` and `fs/write_text_file`. */
  readonly fs?: FsHandlers;
}

/**
 * Opens a fresh transport to the agent: once to connect, again for every reconnect. `onInvalidFrame`
 * receives the frames the transport dropped.
 */
export type Dialer = (onInvalidFrame: (error: ProtocolError) => void) => Promise<Stream>;

/** Where a client's connection comes from: one stream (in-process, never reconnected), or a dialer. */
export type ClientTransport = { readonly stream: Stream } | { readonly dial: Dialer; readonly reconnect?: ReconnectOptions | false };

/**
 * The protocol as a front end uses it (docs/architecture.md §9): ACP's methods and nodwyn's `_nodwyn/…`
 * extensions, typed and checked against the protocol's schemas, one ordered event stream, and, over a
 * dialer, reconnection that re-attaches every session from the last seq it saw.
 */
export class NodwynClient implements FrontendClient {
  private readonly feed = new EventFeed();
  private readonly attached = new Set<string>();
  private readonly stopping = new AbortController();
  private readonly app: ClientApp;
  private readonly initializeRequest: InitializeRequest;
  private readonly dial: Dialer | undefined;
  private readonly policy: ReconnectPolicy | undefined;
  private current: Link | undefined;
  // Set by connect() from the first link, before the client is handed out.
  private latest!: InitializeResponse;
  private waiting: Array<{ resolve(link: Link): void; reject(error: ProtocolError): void }> = [];
  private closedError: ProtocolError | undefined;
  private permission: PermissionHandler | undefined;
  private readonly reportFrame = (error: ProtocolError) => this.feed.report(error);
  /** The console methods: login link, log, secrets, bindings, capabilities, settings. */
  readonly console = new ConsoleApi((method, params) => this.call(method, params));

  private constructor(transport: ClientTransport, options: ClientOptions) {
    this.dial = 'dial' in transport ? transport.dial : undefined;
    this.policy = 'dial' in transport && transport.reconnect !== false ? reconnectPolicy(transport.reconnect) : undefined;
    const fs = options.fs !== undefined;
    this.initializeRequest = {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal: false },
      clientInfo: { ...options.clientInfo },
    };
    this.app = this.buildApp(options);
  }

  /** Connects over `transport` and resolves once `initialize` was answered; a first failure rejects. */
  static async connect(transport: ClientTransport, options: ClientOptions): Promise<NodwynClient> {
    const self = new NodwynClient(transport, options);
    const stream = 'stream' in transport ? transport.stream : await transport.dial(self.reportFrame);
    self.adopt(await openLink(self.app, stream, self.feed, self.initializeRequest));
    return self;
  }

  /** What the agent answered to the latest `initialize`. */
  get agent(): InitializeResponse {
    return this.latest;
  }

  /** Where the connection stands now. */
  get state(): ConnectionState {
    return this.feed.state;
  }

  async newSession(cwd: string): Promise<{ sessionId: string }> {
    const { sessionId } = await this.call<NewSessionResponse>(methods.agent.session.new, { cwd, mcpServers: [] });
    this.attached.add(sessionId);
    return { sessionId };
  }

  async loadSession(sessionId: string, cwd: string): Promise<void> {
    await this.call(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    this.attached.add(sessionId);
  }

  prompt(sessionId: string, prompt: string | readonly ContentBlock[]): Promise<PromptResponse> {
    const blocks: ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : [...prompt];
    return this.call<PromptResponse>(methods.agent.session.prompt, { sessionId, prompt: blocks }, true);
  }

  async cancel(sessionId: string): Promise<void> {
    const link = await this.link();
    try {
      await link.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    } catch (error) {
      throw this.failure(error, methods.agent.session.cancel, link, false);
    }
  }

  async attach(sessionId: string, fromSeq: number = this.lastSeq(sessionId)): Promise<{ lastSeq: number }> {
    const params = checkParams(AttachParamsSchema, { sessionId, fromSeq }, NODWYN_METHODS.attach);
    const result = checkResult(AttachResultSchema, await this.call(NODWYN_METHODS.attach, params), NODWYN_METHODS.attach);
    this.attached.add(sessionId);
    return result;
  }

  async detach(sessionId: string): Promise<void> {
    const params = checkParams(DetachParamsSchema, { sessionId }, NODWYN_METHODS.detach);
    // Forgotten first: a reconnect while the request is out must not attach the session again.
    this.attached.delete(sessionId);
    await this.call(NODWYN_METHODS.detach, params);
  }

  async listSessions(options: { workspace?: string; limit?: number } = {}): Promise<readonly SessionSummary[]> {
    const params = checkParams(SessionsListParamsSchema, options, NODWYN_METHODS.sessionsList);
    return checkResult(SessionsListResultSchema, await this.call(NODWYN_METHODS.sessionsList, params), NODWYN_METHODS.sessionsList).sessions;
  }

  async answerConfirmation(sessionId: string, callId: string, optionId: string): Promise<{ accepted: boolean }> {
    const method = NODWYN_METHODS.confirmationAnswer;
    const params = checkParams(ConfirmationAnswerParamsSchema, { sessionId, callId, optionId }, method);
    return checkResult(ConfirmationAnswerResultSchema, await this.call(method, params), method);
  }

  async fork(sessionId: string, atSeq?: number): Promise<{ sessionId: string }> {
    const method = NODWYN_METHODS.fork;
    const result = checkResult(ForkResultSchema, await this.call(method, checkParams(ForkParamsSchema, { sessionId, atSeq }, method)), method);
    this.attached.add(result.sessionId);
    return result;
  }

  async promptHistory(workspace: string, limit?: number): Promise<readonly string[]> {
    const method = NODWYN_METHODS.promptHistory;
    return checkResult(PromptHistoryResultSchema, await this.call(method, checkParams(PromptHistoryParamsSchema, { workspace, limit }, method)), method).prompts;
  }

  async completeFiles(workspace: string, prefix: string, limit?: number): Promise<readonly string[]> {
    const method = NODWYN_METHODS.filesComplete;
    return checkResult(FilesCompleteResultSchema, await this.call(method, checkParams(FilesCompleteParamsSchema, { workspace, prefix, limit }, method)), method).paths;
  }

  async listProviders(): Promise<{ providers: readonly ProviderChoice[]; configured?: { provider: string; model?: string } }> {
    const method = NODWYN_METHODS.providersList;
    return checkResult(ProvidersListResultSchema, await this.call(method, checkParams(ProvidersListParamsSchema, {}, method)), method);
  }

  async configureProvider(choice: { provider: string; model: string; apiKey?: string; baseUrl?: string }): Promise<{ provider: string; model: string; secret?: string; config: string }> {
    const method = NODWYN_METHODS.providersConfigure;
    return checkResult(ProvidersConfigureResultSchema, await this.call(method, checkParams(ProvidersConfigureParamsSchema, choice, method)), method);
  }

  loginLink(): Promise<{ url: string; expiresInMs: number }> {
    return this.console.loginLink();
  }

  onPermission(handler: PermissionHandler | undefined): void {
    this.permission = handler;
  }

  onEvent(listener: (event: ClientEvent) => void): () => void {
    return this.feed.subscribe(listener);
  }

  lastSeq(sessionId: string): number {
    return this.feed.lastSeq(sessionId);
  }

  async close(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    const link = this.current;
    this.current = undefined;
    if (this.closedError === undefined) this.shut(clientError('CLIENT_CLOSED', { remediation: 'This client was closed; connect a new one.' }), false);
    if (link !== undefined) {
      endLink(link);
      await link.connection.closed;
    }
  }

  private buildApp(options: ClientOptions): ClientApp {
    const app = client({ name: options.clientInfo.name }).onRequest(methods.client.session.requestPermission, ({ params, signal }) =>
      answerPermission(this.permission, params, signal),
    );
    const fs = options.fs;
    if (fs === undefined) return app;
    return app
      .onRequest(methods.client.fs.readTextFile, ({ params, signal }) => fs.readTextFile(params, signal))
      .onRequest(methods.client.fs.writeTextFile, ({ params, signal }) => fs.writeTextFile(params, signal));
  }

  /** Sends a request on the open link (waiting while the client reconnects) and maps every failure. */
  private async call<T>(method: string, params: unknown, prompt = false): Promise<T> {
    const link = await this.link();
    try {
      return await link.connection.agent.request<T>(method, params);
    } catch (error) {
      throw this.failure(error, method, link, prompt);
    }
  }

  private failure(error: unknown, method: string, link: Link, prompt: boolean): ProtocolError {
    return requestFailure(error, method, {
      connectionClosed: link.connection.signal.aborted,
      clientClosed: this.stopping.signal.aborted,
      reconnects: this.policy !== undefined,
      prompt,
    });
  }

  /** The open link; while reconnecting, the next one; rejects once the client is closed. */
  private link(): Promise<Link> {
    if (this.current !== undefined) return Promise.resolve(this.current);
    if (this.closedError !== undefined) return Promise.reject(this.closedError);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private adopt(link: Link): void {
    this.current = link;
    this.latest = link.agent;
    void link.connection.closed.then(() => this.lost(link));
    for (const waiter of this.waiting.splice(0)) waiter.resolve(link);
  }

  private lost(link: Link): void {
    endLink(link);
    if (this.current !== link) return;
    this.current = undefined;
    if (this.stopping.signal.aborted) return;
    const reason = messageOf(link.connection.signal.reason);
    if (this.dial === undefined || this.policy === undefined) {
      this.shut(clientError('CLIENT_CLOSED', { remediation: `The connection to the agent ended (${reason}); connect again.` }));
      return;
    }
    void this.reconnect(this.dial, this.policy, reason);
  }

  /**
   * Dials again with full-jitter backoff, runs `initialize`, and re-attaches every session from the last
   * seq seen, so the client misses no event and, with the feed's seq check, sees none twice.
   */
  private async reconnect(dial: Dialer, policy: ReconnectPolicy, reason: string): Promise<void> {
    let last = reason;
    for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
      this.feed.connection('reconnecting', { attempt, error: last });
      await sleep(backoffDelay(attempt, policy), this.stopping.signal);
      if (this.stopping.signal.aborted) return;
      let link: Link | undefined;
      try {
        link = await openLink(this.app, await dial(this.reportFrame), this.feed, this.initializeRequest);
        for (const sessionId of [...this.attached]) await this.reattach(link, sessionId);
      } catch (error) {
        if (link !== undefined) endLink(link);
        last = messageOf(error);
        continue;
      }
      if (this.stopping.signal.aborted) return endLink(link);
      if (link.connection.signal.aborted) {
        last = 'the connection dropped again while sessions were re-attached';
        continue;
      }
      this.adopt(link);
      this.feed.connection('open', { attempt });
      return;
    }
    this.shut(
      clientError('CLIENT_CLOSED', {
        remediation: `The connection to the daemon dropped and ${policy.maxAttempts} attempts to reconnect failed (last: ${last}). Check that the daemon runs (\`nodwyn serve\`), then connect again.`,
      }),
    );
  }

  /** Re-attaches one session; a session the agent refuses (it is gone) is dropped and reported, the rest go on. */
  private async reattach(link: Link, sessionId: string): Promise<void> {
    try {
      const params = { sessionId, fromSeq: this.feed.lastSeq(sessionId) };
      checkResult(AttachResultSchema, await link.connection.agent.request(NODWYN_METHODS.attach, params), NODWYN_METHODS.attach);
    } catch (error) {
      if (link.connection.signal.aborted) throw error;
      this.attached.delete(sessionId);
      this.feed.report(this.failure(error, NODWYN_METHODS.attach, link, false));
    }
  }

  /** Ends the client: requests waiting for a link reject with `error`, which the `closed` event names unless asked for. */
  private shut(error: ProtocolError, unexpected = true): void {
    this.closedError = error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    this.feed.connection('closed', unexpected ? { error: error.message } : {});
  }
}
