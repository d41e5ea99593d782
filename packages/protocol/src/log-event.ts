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

/** Why a turn ended. */
export const TURN_END_REASONS = ['answer', 'budget', 'progress', 'cancelled', 'failed'] as const;
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
  'confirmation.decided': z.object({ call_id: z.string(), name: z.string(), granted: z.boolean(), by: z.string() }),
  'turn.started': z.object({ provider: z.string(), strategy: z.string() }),
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
