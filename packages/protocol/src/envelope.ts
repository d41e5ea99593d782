import { z } from 'zod';

/** The closed set of failure categories (docs/architecture.md §4). Adding one is a protocol change. */
export const CATEGORIES = [
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'PERMISSION_DENIED',
  'CONFIRMATION_REQUIRED',
  'AUTH_FAILED',
  'PRECONDITION_FAILED',
  'RATE_LIMITED',
  'UPSTREAM_UNAVAILABLE',
  'TRANSPORT_FAILED',
  'OUTCOME_UNKNOWN',
  'UNEXPECTED_RESPONSE',
  'TIMEOUT',
  'CANCELLED',
  'BUDGET_EXCEEDED',
  'LIMIT_EXCEEDED',
  'INTERNAL',
] as const;

/** A failure category. */
export type Category = (typeof CATEGORIES)[number];

/** When a caller may try again: never, after waiting, only with the same idempotency key, or after fixing something. */
export const RETRYABLE = ['never', 'after_delay', 'same_key_only', 'after_remediation'] as const;

/** A retry tier. */
export type Retryable = (typeof RETRYABLE)[number];

/** Longest `received_value` an envelope carries; longer values are cut. */
export const RECEIVED_VALUE_MAX = 200;

/**
 * The one failure shape (Tungsten's envelope plus `plugin`). It is a wire format pasted verbatim into a
 * model's context and shown to people, so absent fields are `null` (they must survive JSON), and it never
 * carries a stack trace.
 */
export const EnvelopeSchema = z
  .object({
    status: z.literal('error'),
    category: z.enum(CATEGORIES),
    operation: z.string().nullable(),
    http_status: z.number().int().nullable(),
    code: z.string().nullable(),
    failed_parameter: z.string().nullable(),
    received_value: z.string().max(RECEIVED_VALUE_MAX + 1).nullable(),
    expected: z.string().nullable(),
    remediation: z.string(),
    retryable: z.enum(RETRYABLE),
    retry_after_ms: z.number().int().nonnegative().nullable(),
    next_action: z.string().nullable(),
    request_id: z.string().nullable(),
    trace: z.object({ attempts: z.number().int().nonnegative() }),
    plugin: z.string().nullable(),
  })
  .strict();

/** A failure, as it crosses every boundary: log, protocol, model context. */
export type Envelope = z.infer<typeof EnvelopeSchema>;
