import { z } from 'zod';
import { LogEventSchema } from './log-event.js';

/**
 * What a run tells its front end as it goes. `log` carries each event as it is appended (the durable truth,
 * confirmations included); `delta` events are ephemeral streaming fragments that the log later records as
 * one finished message, already through the text layers.
 */
export const FrontendEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('log'), event: LogEventSchema }),
  z.object({ type: z.literal('delta.text'), session: z.string(), text: z.string() }),
  z.object({
    type: z.literal('delta.tool_call'),
    session: z.string(),
    call_id: z.string(),
    name: z.string().optional(),
    args_fragment: z.string(),
  }),
  /** A streamed fragment of the model's reasoning (thinking), shown dimmed; the log keeps the finished blocks. */
  z.object({ type: z.literal('delta.thought'), session: z.string(), text: z.string() }),
  /** A tool call of the model passed to the guard: it runs now (or waits for a confirmation first). */
  z.object({ type: z.literal('tool.started'), session: z.string(), call_id: z.string(), name: z.string() }),
  /** A running tool call reported how far it has got (its message already through the text layers). */
  z.object({
    type: z.literal('tool.progress'),
    session: z.string(),
    call_id: z.string(),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
  /** A model request failed before any content and will be sent again after `delay_ms`. */
  z.object({ type: z.literal('model.retry'), session: z.string(), attempt: z.number().int().positive(), delay_ms: z.number().int().nonnegative(), reason: z.string() }),
]);

/** An event sent to a front end. */
export type FrontendEvent = z.infer<typeof FrontendEventSchema>;
