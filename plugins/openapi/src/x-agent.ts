import { jsonPath, TIERS, z, type Tier } from '@nodwyn/plugin-api';
import { CATEGORIES } from '@nodwyn/protocol';
import { openApiError } from './errors.js';

const Mapping = z
  .object({
    category: z.enum(CATEGORIES),
    retryable: z.enum(['never', 'after_delay', 'same_key_only', 'after_remediation']).optional(),
    remediation: z.string().max(2000).optional(),
  })
  .strict();

/**
 * An operation's `x-agent` entry: what the document's author states for agents (seed 003's manifest
 * entries). Keys are snake case, like the rest of an OpenAPI document's extensions.
 */
export const XAgentSchema = z
  .object({
    tier: z.enum(TIERS as [Tier, ...Tier[]]).optional(),
    sensitive: z.array(z.string().min(1)).optional(),
    idempotency: z
      .object({
        policy: z.enum(['none', 'auto', 'caller_owned', 'content_hash']),
        header: z.string().regex(/^[A-Za-z0-9-]{1,64}$/).optional(),
        persist: z.literal('required').optional(),
      })
      .strict()
      .optional(),
    confirmation: z.object({ message: z.string().max(2000).optional(), remediation_note: z.string().max(2000).optional() }).strict().optional(),
    verify: z
      .object({
        operation: z.string().min(1),
        args: z.record(z.string(), z.unknown()).default({}),
        expect: z.record(z.string(), z.unknown()).optional(),
        terminal: z.record(z.string(), z.unknown()).optional(),
        budget_ms: z.number().int().positive().max(600_000).optional(),
        interval_ms: z.number().int().positive().max(60_000).optional(),
      })
      .strict()
      .optional(),
    errors: z
      .object({
        ambiguous_statuses: z.array(z.number().int().min(400).max(599)).optional(),
        codes: z.record(z.string(), Mapping).optional(),
        statuses: z.record(z.string().regex(/^[1-5]\d\d$/), Mapping).optional(),
        non_json: Mapping.optional(),
      })
      .strict()
      .optional(),
    stream: z
      .object({
        done: z.string().optional(),
        idle_ms: z.number().int().positive().max(600_000).optional(),
        max_events: z.number().int().positive().max(100_000).optional(),
        max_bytes: z.number().int().positive().max(64 * 1024 * 1024).optional(),
        max_ms: z.number().int().positive().max(600_000).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** A parsed `x-agent` entry. */
export type XAgent = z.infer<typeof XAgentSchema>;

/** The `x-agent` entry at `path` (a JSON path of steps), parsed; a bad one is an envelope naming where. */
export function parseXAgent(value: unknown, path: readonly (string | number)[], file: string): XAgent {
  if (value === undefined) return {};
  const result = XAgentSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw openApiError('OPENAPI_X_AGENT_INVALID', {
    operation: 'openapi.load',
    failed_parameter: jsonPath([...path, 'x-agent', ...issue.path]),
    expected: issue.message,
    remediation: `Fix the x-agent entry in ${file} (see docs/openapi.md, "x-agent").`,
  });
}
