import { z } from 'zod';
import { LogEventSchema } from './log-event.js';

/**
 * The `_nodwyn/…` extension methods: what the Agent Client Protocol lacks and nodwyn's front ends need
 * (docs/frontends.md). ACP reserves names that start with `_` for extensions, so a plain ACP client never
 * sees them unless it asks.
 */
export const NODWYN_METHODS = {
  /** Request: join a session, receiving its log events after `fromSeq`, then every live update. */
  attach: '_nodwyn/session/attach',
  /** Request: stop receiving a session's updates on this connection. */
  detach: '_nodwyn/session/detach',
  /** Request: the sessions of the log, newest activity first. */
  sessionsList: '_nodwyn/sessions/list',
  /** Request: answer a pending confirmation with one of its options; the first answer wins. */
  confirmationAnswer: '_nodwyn/confirmation/answer',
  /** Request: a new session starting from a copy of another's window at a seq; the new one is attached. */
  fork: '_nodwyn/session/fork',
  /** Request: the person's earlier prompts in a workspace, newest first (the editor's Up/Down history). */
  promptHistory: '_nodwyn/prompts/history',
  /** Request: workspace files whose path starts with a prefix, for `@path` completion. */
  filesComplete: '_nodwyn/files/complete',
  /** Request: the providers of the distribution, their models, and what is configured. */
  providersList: '_nodwyn/providers/list',
  /** Request: first-run setup: the provider (and model) to use, its key stored in the keychain and bound to its host. */
  providersConfigure: '_nodwyn/providers/configure',
  /** Notification (agent → client): one log event of an attached session. */
  log: '_nodwyn/log',
  /** Notification (agent → client): a call of an attached session waits for a person. */
  confirmationRequested: '_nodwyn/confirmation/requested',
} as const;

const sessionId = z.string().min(1).max(200);

/** `_nodwyn/session/attach` params. `fromSeq` 0 (the default) replays the whole session. */
export const AttachParamsSchema = z.object({ sessionId, fromSeq: z.number().int().nonnegative().default(0) }).passthrough();
/** What `_nodwyn/session/attach` answers, once every replayed event was sent: the last seq replayed. */
export const AttachResultSchema = z.object({ lastSeq: z.number().int().nonnegative() });

/** `_nodwyn/session/detach` params. */
export const DetachParamsSchema = z.object({ sessionId }).passthrough();

/** `_nodwyn/log` notification params: replayed events first, in seq order, then live ones, none twice. */
export const LogNotificationSchema = z.object({ sessionId, event: LogEventSchema });

/** Where a session stands: `running` a prompt, `waiting` for a person's confirmation, or `idle`. */
export const SESSION_STATES = ['idle', 'running', 'waiting'] as const;
/** Where a session stands. */
export type SessionState = (typeof SESSION_STATES)[number];

/** One row of `_nodwyn/sessions/list`. */
export const SessionSummarySchema = z.object({
  sessionId,
  workspace: z.string(),
  title: z.string().optional(),
  state: z.enum(SESSION_STATES),
  /** ISO time of the session's latest event. */
  lastActivity: z.string(),
  events: z.number().int().nonnegative(),
  /** USD the session's priced model calls cost so far; absent while none was priced. */
  cost: z.number().nonnegative().optional(),
});
/** One row of `_nodwyn/sessions/list`. */
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** `_nodwyn/sessions/list` params: optionally only one workspace's sessions, and at most `limit` rows. */
export const SessionsListParamsSchema = z
  .object({ workspace: z.string().optional(), limit: z.number().int().positive().max(10_000).optional() })
  .passthrough()
  .default({});
/** What `_nodwyn/sessions/list` answers. */
export const SessionsListResultSchema = z.object({ sessions: z.array(SessionSummarySchema) });

/** ACP's four permission answers; security questions offer only the two `_once` ones. */
export const PERMISSION_OPTION_KINDS = ['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const;
/** One of ACP's four permission answers. */
export type PermissionOptionKind = (typeof PERMISSION_OPTION_KINDS)[number];

/** A permission option as ACP sends it; nodwyn's option ids equal their kinds. */
export const PermissionOptionSchema = z.object({ optionId: z.string(), name: z.string(), kind: z.enum(PERMISSION_OPTION_KINDS) });

/** `_nodwyn/confirmation/requested` notification params. `callId` is the guard's call id, `toolCallId` ACP's. */
export const ConfirmationRequestedSchema = z.object({
  sessionId,
  callId: z.string(),
  toolCallId: z.string(),
  tool: z.string(),
  tier: z.string(),
  reason: z.string(),
  security: z.boolean(),
  options: z.array(PermissionOptionSchema),
  /** What the call would do, a line each, for the person to read before answering. */
  effects: z.array(z.string()).optional(),
});
/** A call waiting for a person, as every attached client is told. */
export type ConfirmationRequested = z.infer<typeof ConfirmationRequestedSchema>;

/** `_nodwyn/confirmation/answer` params. */
export const ConfirmationAnswerParamsSchema = z.object({ sessionId, callId: z.string().min(1), optionId: z.string().min(1) }).passthrough();
/**
 * What `_nodwyn/confirmation/answer` answers: `accepted` false when another answer came first (or the
 * question was withdrawn by a cancel); the log's `confirmation.decided` says who decided.
 */
export const ConfirmationAnswerResultSchema = z.object({ accepted: z.boolean() });

/** `_nodwyn/session/fork` params: fork `sessionId` at `atSeq` (default: its latest event). */
export const ForkParamsSchema = z.object({ sessionId, atSeq: z.number().int().positive().optional() }).passthrough();
/** What `_nodwyn/session/fork` answers: the new session. */
export const ForkResultSchema = z.object({ sessionId });

/** `_nodwyn/prompts/history` params: a workspace's prompts, newest first, at most `limit` (default 200). */
export const PromptHistoryParamsSchema = z.object({ workspace: z.string().min(1), limit: z.number().int().positive().max(5000).optional() }).passthrough();
/** What `_nodwyn/prompts/history` answers: the prompts, newest first, each once. */
export const PromptHistoryResultSchema = z.object({ prompts: z.array(z.string()) });

/**
 * `_nodwyn/files/complete` params: the workspace's files and folders whose relative path starts with
 * `prefix` (ignored files and nodwyn's own folders left out), at most `limit` (default 50).
 */
export const FilesCompleteParamsSchema = z
  .object({ workspace: z.string().min(1), prefix: z.string().max(4096), limit: z.number().int().positive().max(1000).optional() })
  .passthrough();
/** What `_nodwyn/files/complete` answers: relative paths, folders ending in `/`, shortest first. */
export const FilesCompleteResultSchema = z.object({ paths: z.array(z.string()) });

/** One provider a person can pick at setup. */
export const ProviderChoiceSchema = z.object({
  id: z.string(),
  description: z.string(),
  /** Known models, with USD per million tokens when the provider knows them. */
  models: z.array(z.object({ id: z.string(), input: z.number().optional(), output: z.number().optional() })),
  /** Whether it needs an API key (a local OpenAI-compatible server does not). */
  needsKey: z.boolean(),
  /** Whether it needs a base URL (an OpenAI-compatible server). */
  needsBaseUrl: z.boolean(),
});
/** One provider a person can pick at setup. */
export type ProviderChoice = z.infer<typeof ProviderChoiceSchema>;

/** `_nodwyn/providers/list` params. */
export const ProvidersListParamsSchema = z.object({}).passthrough().default({});
/** What `_nodwyn/providers/list` answers: the choices, and the configured default (absent on a first run). */
export const ProvidersListResultSchema = z.object({
  providers: z.array(ProviderChoiceSchema),
  configured: z.object({ provider: z.string(), model: z.string().optional() }).optional(),
});

/**
 * `_nodwyn/providers/configure` params. The key goes to the keychain (bound to the provider's host) and
 * never into a config file or the log; `config.toml` gets the provider, the model and the key's name.
 */
export const ProvidersConfigureParamsSchema = z
  .object({
    provider: z.string().min(1),
    model: z.string().min(1),
    apiKey: z.string().min(1).max(16_384).optional(),
    baseUrl: z.string().url().optional(),
  })
  .passthrough();
/** What `_nodwyn/providers/configure` answers: what was written where (never the key). */
export const ProvidersConfigureResultSchema = z.object({ provider: z.string(), model: z.string(), secret: z.string().optional(), config: z.string() });
