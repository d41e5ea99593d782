import { jsonPath, z } from '@nodwyn/plugin-api';
import { memoryFail } from './errors.js';

/** The `[memory]` configuration, validated, with every default filled in. */
export interface MemoryConfig {
  /** The person's leave to search the project's earlier sessions (`search_history`). */
  readonly crossSession: boolean;
  /** Files larger than this are not indexed (their lines are for grep). */
  readonly maxFileBytes: number;
  /** Longest a search waits for the repository index to be built or refreshed before answering partially. */
  readonly indexBudgetMs: number;
  /** How old the last full check of the repository's files may be before a search starts another, in the background. */
  readonly rescanMs: number;
}

// Only the keys this plugin reads are checked: `[memory]` is shared with the compaction strategy
// (`summary_model`), whose keys are its own.
const Settings = z.object({
  memory: z
    .object({
      cross_session: z.boolean().default(false),
      max_file_bytes: z.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
      index_budget_ms: z.number().int().min(0).max(600_000).default(2000),
      rescan_ms: z.number().int().min(0).max(24 * 3600 * 1000).default(30_000),
    })
    .prefault({}),
});

/**
 * Reads `[memory]` from the person's settings. A repository's `.nodwyn/config.toml` cannot set it (the
 * runtime applies only `tools`, `budgets` and `plugins` from there), so `cross_session` is the person's
 * own leave. A malformed section stops the plugin with an envelope naming the key.
 */
export function parseMemoryConfig(settings: Readonly<Record<string, unknown>>): MemoryConfig {
  const parsed = Settings.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = jsonPath(issue?.path ?? ['memory']);
    return memoryFail('MEMORY_CONFIG_INVALID', {
      operation: 'register',
      failed_parameter: path,
      expected: issue?.message ?? 'a valid [memory] section',
      remediation: `Fix ${path} in your config.toml: ${issue?.message ?? 'see the plugin README'}.`,
    });
  }
  const memory = parsed.data.memory;
  return { crossSession: memory.cross_session, maxFileBytes: memory.max_file_bytes, indexBudgetMs: memory.index_budget_ms, rescanMs: memory.rescan_ms };
}
