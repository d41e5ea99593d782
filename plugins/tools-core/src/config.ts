import { jsonPath, valueAt, z } from '@nodwyn/plugin-api';
import { toolsFail } from './errors.js';
import { parseAllowEntry, type AllowEntry } from './shell-allow-list.js';

/** The `[tools]` configuration, after validation, with every default filled in. */
export interface ToolsConfig {
  /** Most entries list_dir and glob print, and the ceiling of grep's `max_results`. */
  readonly maxEntries: number;
  readonly shell: {
    /** Commands that run without a confirmation (parsed `[tools.shell] allow`). */
    readonly allow: readonly AllowEntry[];
    readonly defaultTimeoutMs: number;
    readonly maxTimeoutMs: number;
    /** Credential variables commands may still see (`[tools.shell] pass_env`). */
    readonly passEnv: readonly string[];
  };
}

const ALLOW_ENTRY_RULE =
  "an exact command or a prefix ending in ' *' (e.g. \"git log *\"), of plain words: no quotes, shell operators, redirections or expansions";

const allowEntry = z.string().transform((entry, ctx) => {
  const parsed = parseAllowEntry(entry);
  if (parsed) return parsed;
  ctx.addIssue({ code: 'custom', message: ALLOW_ENTRY_RULE });
  return z.NEVER;
});
const milliseconds = z.number().int().min(1000).max(24 * 3600 * 1000);

// Only `tools` is ours in the whole settings object, and only `tools.shell` is checked strictly: other
// plugins may add their own `[tools.*]` tables.
const Settings = z.object({
  tools: z
    .object({
      max_entries: z.number().int().min(10).max(100_000).default(1000),
      shell: z
        .object({
          allow: z.array(allowEntry).default([]),
          default_timeout_ms: milliseconds.default(120_000),
          max_timeout_ms: milliseconds.default(600_000),
          pass_env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).default([]),
        })
        .strict()
        .prefault({}),
    })
    .prefault({}),
});

/**
 * Validates the `[tools]` section of the user's settings. A malformed section stops the plugin with a
 * `VALIDATION_FAILED` envelope naming the exact key, e.g. `$.tools.shell.allow[2]`, rather than running
 * with a silently different allow-list.
 */
export function parseToolsConfig(settings: Readonly<Record<string, unknown>>): ToolsConfig {
  const parsed = Settings.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = jsonPath(issue?.path ?? ['tools']);
    toolsFail('CONFIG_INVALID', {
      operation: 'register',
      failed_parameter: path,
      received_value: valueAt(settings, issue?.path ?? []),
      expected: issue?.message,
      remediation: `Fix ${path} in the [tools] section of your nodwyn config.toml: ${issue?.message ?? 'it does not validate'}.`,
    });
  }
  const { tools } = parsed.data;
  return {
    maxEntries: tools.max_entries,
    shell: {
      allow: tools.shell.allow,
      // A lowered max without a lowered default should not be an error: the default follows the max.
      defaultTimeoutMs: Math.min(tools.shell.default_timeout_ms, tools.shell.max_timeout_ms),
      maxTimeoutMs: tools.shell.max_timeout_ms,
      passEnv: tools.shell.pass_env,
    },
  };
}
