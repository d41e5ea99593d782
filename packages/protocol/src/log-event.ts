import { z } from 'zod';
import { EnvelopeSchema } from './envelope.js';

/** 64 zero hex digits: the `prev` of a session's first event, which has no predecessor. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * Who caused an event: `user`, `model`, `kernel`, `tool:<name>` or `plugin:<name>`.
 */
export const ActorSchema = z.string().regex(/^(user|model|kernel|(tool|plugin):[@a-z0-9_./-]+)$/);

/** One event of the log (docs/architecture.md §3). `hash = sha256(prev ‖ canonical-json(event without hash))`. */
export const LogEventSchema = z
  .object({
    session: z.string().min(1),
    seq: z.number().int().positive(),
    ts: z.string(),
    type: z.string().regex(/^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/),
    actor: ActorSchema,
    payload: z.record(z.string(), z.unknown()),
    prev: z.string().regex(/^[0-9a-f]{64}$/),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();

/** A logged event. */
export type LogEvent = z.infer<typeof LogEventSchema>;

/** A tool call the model made. `id` is unique within its assistant message. */
export const ToolCallSchema = z.object({ id: z.string().min(1), name: z.string().min(1), args: z.unknown() });
/** A tool call the model made. */
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** Token usage of one model call. */
export const UsageSchema = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cache_read: z.number().int().nonnegative().optional(),
  cache_write: z.number().int().nonnegative().optional(),
});
/** Token usage of one model call. */
export type Usage = z.infer<typeof UsageSchema>;

/**
 * Why a turn ended. `interrupted`: the process that ran it died (a crash, SIGKILL) and a later one closed
 * it when it opened the session again.
 */
export const TURN_END_REASONS = ['answer', 'budget', 'progress', 'cancelled', 'failed', 'interrupted'] as const;
/** Why a turn ended. */
export type TurnEndReason = (typeof TURN_END_REASONS)[number];

/**
 * Fields of every tool outcome event. One outcome event per call: a model call's request is already in
 * its `message.assistant`; a host call (`origin: 'host'`, made by a primitive or sandboxed code) carries
 * its arguments here.
 */
const callFields = {
  call_id: z.string(),
  name: z.string(),
  origin: z.enum(['model', 'host']).optional(),
  args: z.unknown().optional(),
};

/** Payload schemas of the event types the kernel writes. Plugins may write other dotted types. */
export const EventPayloads = {
  'session.created': z.object({
    workspace: z.string(),
    title: z.string().optional(),
    forked_from: z.object({ session: z.string(), seq: z.number().int().nonnegative() }).optional(),
    replay_of: z.string().optional(),
  }),
  /** A session's title, set after it was created (from its first prompt, or `/title`); the latest one counts. */
  'session.titled': z.object({ title: z.string() }),
  /**
   * A session's own model, chosen by the person (`/model`): the provider it belongs to and the model,
   * over `[provider]` of config.toml for this session's later prompts; the latest one counts.
   */
  'session.configured': z.object({ provider: z.string().optional(), model: z.string() }),
  'message.user': z.object({ text: z.string() }),
  'message.assistant': z.object({
    text: z.string(),
    tool_calls: z.array(ToolCallSchema),
    usage: UsageSchema.optional(),
    stop_reason: z.string(),
    provider: z.string(),
    model: z.string().optional(),
    /** What the call cost, from the provider's price table (absent when the model has no price). */
    cost_usd: z.number().nonnegative().optional(),
    /** Reasoning blocks, kept so they can be sent back to the provider and read later. */
    thinking: z.array(z.object({ text: z.string(), signature: z.string().optional(), redacted: z.boolean().optional() })).optional(),
  }),
  'tool.completed': z.object({
    ...callFields,
    content: z.string(),
    truncated: z.boolean().optional(),
    taint: z.array(z.string()).optional(),
  }),
  'tool.failed': z.object({ ...callFields, envelope: EnvelopeSchema }),
  'tool.denied': z.object({ ...callFields, stage: z.string(), envelope: EnvelopeSchema }),
  /**
   * A call waits for a person. `effect` is what an "always" answer would cover (docs/architecture.md §9);
   * `security` questions (a secret leaving for an unbound place) are never answered by "always" or `--yes`.
   * For egress, `subjects` name each secret's class and destination, never a value. `effects` says what the
   * call would do, a line each, from the primitive's preview (credentials and sensitive fields redacted).
   */
  'confirmation.requested': z.object({
    call_id: z.string(),
    name: z.string(),
    tier: z.string(),
    reason: z.string(),
    effect: z.string(),
    security: z.boolean().optional(),
    subjects: z.array(z.object({ class: z.string(), destination: z.string() })).optional(),
    effects: z.array(z.string()).optional(),
  }),
  /** How a confirmation ended: `by` is who answered (a client id, `approval`, `--yes`, `nobody`, `cancel`). */
  'confirmation.decided': z.object({
    call_id: z.string(),
    name: z.string(),
    granted: z.boolean(),
    by: z.string(),
    /** The ACP option chosen (`allow_once`, `allow_always`, `reject_once`, `reject_always`), when a client answered. */
    option: z.string().optional(),
  }),
  /** A question nobody answered before the process that asked it died; written when the session is opened again. */
  'confirmation.expired': z.object({ call_id: z.string(), name: z.string() }),
  /** An "always" answer, remembered for the session by the call's effect, never by its arguments' text. */
  'approval.granted': z.object({ effect: z.string(), name: z.string(), call_id: z.string(), by: z.string() }),
  'approval.refused': z.object({ effect: z.string(), name: z.string(), call_id: z.string(), by: z.string() }),
  /** `pid`: the process running the turn, so recovery never closes a turn a live process still runs. */
  'turn.started': z.object({ provider: z.string(), strategy: z.string(), pid: z.number().int().positive().optional() }),
  'turn.ended': z.object({
    reason: z.enum(TURN_END_REASONS),
    answer: z.string().optional(),
    envelope: EnvelopeSchema.optional(),
  }),
  'plan.requested': z.object({ reason: z.string() }),
  'plan.approved': z.object({ plan: z.string(), by: z.enum(['judge', 'person']), round: z.number().int().positive(), score: z.number().optional() }),
  'plan.revise': z.object({
    plan: z.string(),
    by: z.enum(['judge', 'person']),
    round: z.number().int().positive(),
    score: z.number().optional(),
    feedback: z.string().optional(),
  }),
  'primitive.replaced': z.object({ name: z.string(), previous_owner: z.string(), owner: z.string() }),
} as const;

/** An event type the kernel writes. */
export type KernelEventType = keyof typeof EventPayloads;
/** The payload of a kernel event type. */
export type EventPayload<T extends KernelEventType> = z.infer<(typeof EventPayloads)[T]>;
