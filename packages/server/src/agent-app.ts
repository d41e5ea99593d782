import { agent, PROTOCOL_VERSION, type AgentApp, type InitializeResponse } from '@agentclientprotocol/sdk';
import {
  AttachParamsSchema,
  CONSOLE_METHODS,
  LoginLinkParamsSchema,
  CancelParamsSchema,
  ConfirmationAnswerParamsSchema,
  DetachParamsSchema,
  FilesCompleteParamsSchema,
  ForkParamsSchema,
  ListSessionsParamsSchema,
  LoadSessionParamsSchema,
  NewSessionParamsSchema,
  NODWYN_METHODS,
  PromptHistoryParamsSchema,
  PromptParamsSchema,
  ProvidersConfigureParamsSchema,
  ProvidersListParamsSchema,
  SessionsListParamsSchema,
} from '@nodwyn/protocol';
import { ClientConnection } from './client-connection.js';
import { clientMcpServers } from './client-mcp-servers.js';
import { consoleMethods } from './console-methods.js';
import { serverErrors } from './errors.js';
import { paramsParser, rpcError } from './rpc-error.js';
import type { LiveSession } from './live-session.js';
import type { LoginLink } from './login-links.js';
import type { SessionManager } from './session-manager.js';

/** What `initialize` says about the agent. */
export interface AgentInfo {
  readonly name: string;
  readonly version: string;
}

/** What the transport serving the app offers beyond the session manager. */
export interface AgentAppExtras {
  /** Makes a web console login link; only the daemon, which serves the console over HTTP, has one. */
  readonly loginLink?: () => LoginLink;
}

/** Prompts `_nodwyn/prompts/history` answers when the client names no limit. */
const HISTORY_LIMIT = 200;
/** Paths `_nodwyn/files/complete` answers when the client names no limit. */
const COMPLETION_LIMIT = 50;

/** Runs a handler body, turning whatever it throws into a JSON-RPC error with the envelope as `data`. */
async function answering<T>(operation: string, body: () => Promise<T> | T): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw rpcError(error, operation);
  }
}

/**
 * The ACP agent for one client connection: ACP's methods and nodwyn's `_nodwyn/…` extensions over the
 * session manager. One app per connection, so what a client declared in `initialize` (its `fs`
 * capabilities, its name) stays with that client. `connection.closed` resolves when the client leaves.
 */
export function agentApp(
  sessions: SessionManager,
  info: AgentInfo,
  onConnection: (connection: ClientConnection, closed: Promise<void>) => void,
  extras: AgentAppExtras = {},
): AgentApp {
  let client: ClientConnection | undefined;
  const me = (): ClientConnection => client!;
  const later = (send: () => void): void => void setImmediate(send);
  // After the answer: the commands this session answers itself, its plugins' included.
  const announceCommands = (live: LiveSession): void =>
    later(() => me().update(live.id, { sessionUpdate: 'available_commands_update', availableCommands: live.availableCommands() }));
  return consoleMethods(sessions, agent({ name: info.name }))
    .onConnect((connection) => {
      client = new ClientConnection(connection.client);
      const closed = connection.closed.then(() => {
        client!.markClosed();
        sessions.disconnect(client!);
      });
      onConnection(client, closed);
    })
    // Registered without a parser of ours, so the SDK keeps refusing every other request until this one
    // was answered (-32600); the SDK checks its params against ACP's own schema.
    .onRequest('initialize', ({ params }): InitializeResponse => {
      const fs = params.clientCapabilities?.fs;
      me().greet({ name: params.clientInfo?.name, fsRead: fs?.readTextFile === true, fsWrite: fs?.writeTextFile === true });
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          // nodwyn's models take text: embedded text resources are read, images and audio refused.
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          // Stdio servers always (ACP requires them); streamable HTTP too; the old SSE transport not.
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: { list: {} },
        },
        agentInfo: { name: info.name, title: 'nodwyn', version: info.version },
        authMethods: [],
      };
    })
    .onRequest('session/new', paramsParser(NewSessionParamsSchema, 'session/new'), ({ params }) =>
      answering('session/new', async () => {
        const live = await sessions.create(params.cwd);
        await attachMcp(live, params.mcpServers, me());
        live.subscribers.add(me());
        announceCommands(live);
        return { sessionId: live.id };
      }),
    )
    .onRequest('session/load', paramsParser(LoadSessionParamsSchema, 'session/load'), ({ params }) =>
      answering('session/load', async () => {
        const live = await sessions.open(params.sessionId);
        await attachMcp(live, params.mcpServers, me());
        await live.load(me());
        announceCommands(live);
        return {};
      }),
    )
    .onRequest('session/list', paramsParser(ListSessionsParamsSchema, 'session/list'), ({ params }) =>
      answering('session/list', () => ({
        sessions: sessions.list(params.cwd ? { workspace: params.cwd } : {}).map((s) => ({
          sessionId: s.sessionId,
          cwd: s.workspace,
          title: s.title ?? null,
          updatedAt: s.lastActivity,
        })),
      })),
    )
    .onRequest('session/prompt', paramsParser(PromptParamsSchema, 'session/prompt'), ({ params }) =>
      answering('session/prompt', async () => (await sessions.open(params.sessionId)).prompt(me(), params.prompt)),
    )
    .onNotification('session/cancel', paramsParser(CancelParamsSchema, 'session/cancel'), ({ params }) => {
      sessions.live(params.sessionId)?.cancel();
    })
    .onRequest(NODWYN_METHODS.attach, paramsParser(AttachParamsSchema, NODWYN_METHODS.attach), ({ params }) =>
      answering(NODWYN_METHODS.attach, async () => {
        const lastSeq = await sessions.attach(me(), params.sessionId, params.fromSeq);
        const live = sessions.live(params.sessionId);
        if (live) announceCommands(live);
        return { lastSeq };
      }),
    )
    .onRequest(NODWYN_METHODS.fork, paramsParser(ForkParamsSchema, NODWYN_METHODS.fork), ({ params }) =>
      answering(NODWYN_METHODS.fork, async () => {
        const live = await sessions.fork(me(), params.sessionId, params.atSeq);
        announceCommands(live);
        return { sessionId: live.id };
      }),
    )
    .onRequest(NODWYN_METHODS.promptHistory, paramsParser(PromptHistoryParamsSchema, NODWYN_METHODS.promptHistory), ({ params }) =>
      answering(NODWYN_METHODS.promptHistory, () => ({ prompts: sessions.promptHistory(params.workspace, params.limit ?? HISTORY_LIMIT) })),
    )
    .onRequest(NODWYN_METHODS.filesComplete, paramsParser(FilesCompleteParamsSchema, NODWYN_METHODS.filesComplete), ({ params }) =>
      answering(NODWYN_METHODS.filesComplete, async () => ({ paths: await sessions.completeFiles(params.workspace, params.prefix, params.limit ?? COMPLETION_LIMIT) })),
    )
    .onRequest(NODWYN_METHODS.providersList, paramsParser(ProvidersListParamsSchema, NODWYN_METHODS.providersList), () =>
      answering(NODWYN_METHODS.providersList, () => sessions.providers()),
    )
    .onRequest(NODWYN_METHODS.providersConfigure, paramsParser(ProvidersConfigureParamsSchema, NODWYN_METHODS.providersConfigure), ({ params }) =>
      answering(NODWYN_METHODS.providersConfigure, () =>
        sessions.configureProvider({ provider: params.provider, model: params.model, ...(params.apiKey === undefined ? {} : { apiKey: params.apiKey }), ...(params.baseUrl === undefined ? {} : { baseUrl: params.baseUrl }) }),
      ),
    )
    .onRequest(NODWYN_METHODS.detach, paramsParser(DetachParamsSchema, NODWYN_METHODS.detach), ({ params }) =>
      answering(NODWYN_METHODS.detach, () => {
        sessions.live(params.sessionId)?.subscribers.remove(me());
        return {};
      }),
    )
    .onRequest(NODWYN_METHODS.sessionsList, paramsParser(SessionsListParamsSchema, NODWYN_METHODS.sessionsList), ({ params }) =>
      answering(NODWYN_METHODS.sessionsList, () => ({ sessions: sessions.list(params) })),
    )
    .onRequest(CONSOLE_METHODS.loginLink, paramsParser(LoginLinkParamsSchema, CONSOLE_METHODS.loginLink), () =>
      answering(CONSOLE_METHODS.loginLink, () => {
        if (extras.loginLink) return extras.loginLink();
        throw serverErrors.error('WEB_CONSOLE_UNAVAILABLE', {
          operation: CONSOLE_METHODS.loginLink,
          remediation: 'Only the daemon serves the web console: run `nodwyn web` (it starts nodwyn serve when none runs) and ask it.',
        });
      }),
    )
    .onRequest(NODWYN_METHODS.confirmationAnswer, paramsParser(ConfirmationAnswerParamsSchema, NODWYN_METHODS.confirmationAnswer), ({ params }) =>
      answering(NODWYN_METHODS.confirmationAnswer, async () => {
        const live = await sessions.open(params.sessionId);
        const offers = live.broker.offers(params.callId, params.optionId);
        if (offers === false) {
          throw serverErrors.error('CONFIRMATION_OPTION_INVALID', {
            operation: NODWYN_METHODS.confirmationAnswer,
            failed_parameter: '$.optionId',
            received_value: params.optionId,
            expected: live.broker.pending().find((q) => q.callId === params.callId)?.options.map((o) => o.optionId).join(', '),
            remediation: 'Answer with one of the options the question offered; a question about a secret leaving offers no "always".',
          });
        }
        // A late answer (another client decided first, or the turn was cancelled) is ignored, not an error.
        return { accepted: live.broker.answer(params.callId, params.optionId, me().label) };
      }),
    );
}

/** A session's MCP servers from its client, started by the MCP plugin before the session is answered. */
async function attachMcp(live: LiveSession, servers: readonly Record<string, unknown>[], client: ClientConnection): Promise<void> {
  const handed = clientMcpServers(servers);
  if (handed.length > 0) await live.scope.attachMcpServers?.(handed, client.label);
}
