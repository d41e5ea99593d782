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
