import { jsonPath, z } from '@nodwyn/plugin-api';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from '@nodwyn/plugin-api/sandbox';
import { capabilityError } from './errors.js';

/** The sandbox runners a capability may ask for. */
export const RUNNERS = ['quickjs', 'deno', 'node'] as const;
/** A sandbox runner id. */
export type RunnerId = (typeof RUNNERS)[number];

/**
 * When registering needs a person's confirmation (the policy of docs/architecture.md §7):
 * `grants`: a new capability or a new version that asks for more than it had (read, write, hosts, runner);
 * `always`: every registration; `never`: none (registration is still logged and examples still run).
 */
export const CONFIRM_MODES = ['grants', 'always', 'never'] as const;

/** `[plugins."@nodwyn/plugin-capabilities"]` in config.toml. */
const ConfigSchema = z
  .object({
    max_capabilities: z.number().int().positive().default(100),
    max_code_bytes: z.number().int().positive().default(64 * 1024),
    max_examples: z.number().int().positive().default(10),
    /** A regular expression; names must also be valid tool names (lower_snake_case, ≤ 64 characters). */
    name_pattern: z.string().default('^[a-z][a-z0-9_]{1,47}$'),
    runner: z.enum(RUNNERS).default('quickjs'),
    confirm: z.enum(CONFIRM_MODES).default('grants'),
    timeout_ms: z.number().int().positive().default(DEFAULT_SANDBOX_LIMITS.timeoutMs),
    example_timeout_ms: z.number().int().positive().default(10_000),
    output_cap: z.number().int().positive().default(DEFAULT_SANDBOX_LIMITS.outputCap),
    memory_mb: z.number().int().positive().default(DEFAULT_SANDBOX_LIMITS.memoryMb),
  })
  .strict();

/** The plugin's settings, defaults filled in. */
export interface CapabilityConfig {
  readonly maxCapabilities: number;
  readonly maxCodeBytes: number;
  readonly maxExamples: number;
  readonly namePattern: RegExp;
  readonly runner: RunnerId;
  readonly confirm: (typeof CONFIRM_MODES)[number];
  readonly limits: SandboxLimits;
  /** The limits of one example run at admission: `limits` with the example timeout (never above `timeout_ms`). */
  readonly exampleLimits: SandboxLimits;
}

/** Reads the plugin's config section; a bad value is an envelope naming the key. */
export function readConfig(raw: Readonly<Record<string, unknown>>): CapabilityConfig {
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = jsonPath(issue.path);
    throw capabilityError('CAPABILITY_CONFIG_INVALID', {
      operation: 'plugin.register',
      failed_parameter: where,
      expected: issue.message,
      remediation: `Fix ${where} in [plugins."@nodwyn/plugin-capabilities"] of config.toml: ${issue.message}.`,
    });
  }
  const c = parsed.data;
  let namePattern: RegExp;
  try {
    namePattern = new RegExp(c.name_pattern);
  } catch (error) {
    throw capabilityError('CAPABILITY_CONFIG_INVALID', {
      operation: 'plugin.register',
      failed_parameter: '$.name_pattern',
      received_value: c.name_pattern,
      remediation: `name_pattern is not a regular expression (${(error as Error).message}); fix it in config.toml.`,
    });
  }
  const limits = { timeoutMs: c.timeout_ms, outputCap: c.output_cap, memoryMb: c.memory_mb };
  return {
    maxCapabilities: c.max_capabilities,
    maxCodeBytes: c.max_code_bytes,
    maxExamples: c.max_examples,
    namePattern,
    runner: c.runner,
    confirm: c.confirm,
    limits,
    exampleLimits: { ...limits, timeoutMs: Math.min(c.example_timeout_ms, c.timeout_ms) },
  };
}
