import { JUDGE_CONTENT, jsonPath, valueAt, z, type JudgeContent, type ProviderOptions } from '@nodwyn/plugin-api';
import { judgeError } from './errors.js';

/** The `[judge]` configuration, validated, with every default filled in. */
export interface JudgeConfig {
  /** The registered provider the judge's model runs on; undefined when no judge is configured. */
  readonly provider?: string;
  /** What the provider gets: `model`, `base_url`, `api_key` and the `[judge.options]` table. */
  readonly options: ProviderOptions;
  readonly model?: string;
  /** `mode = "on"` (or `--judge`): the gate and seam A run for every ask. */
  readonly planMode: boolean;
  readonly content: JudgeContent;
  /** A score at or above it approves a plan or allows an egress. */
  readonly threshold: number;
  readonly timeoutMs: number;
  /** Seam C: the judge scores ambiguous egress. */
  readonly egress: boolean;
}

const text = z.string().min(1);

// Only `judge` is ours in the settings; inside it, every key is checked strictly, so a misspelt
// `treshold` is an error rather than a judge silently running on its default.
const Settings = z.object({
  judge: z
    .object({
      provider: text.optional(),
      model: text.optional(),
      base_url: text.optional(),
      api_key: text.optional(),
      /** Provider-specific options (`script` for `scripted`, `max_tokens`, …), strings as on the command line. */
      options: z.record(z.string(), z.string()).default({}),
      mode: z.enum(['off', 'on']).default('off'),
      content: z.enum(JUDGE_CONTENT).default('plan'),
      threshold: z.number().min(0).max(1).default(0.7),
      timeout_ms: z.number().int().min(100).max(600_000).default(30_000),
      egress: z.enum(['on', 'off']).default('on'),
    })
    .strict()
    .prefault({}),
});

/**
 * Validates `[judge]`. A malformed section stops the plugin with a `VALIDATION_FAILED` envelope naming the
 * exact key (`$.judge.threshold`) rather than judging with a silently different setting. Without a
 * `provider` there is no judge: `planMode` and `egress` are off whatever the section says.
 */
export function parseJudgeConfig(settings: Readonly<Record<string, unknown>>): JudgeConfig {
  const parsed = Settings.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = jsonPath(issue?.path ?? ['judge']);
    throw judgeError('CONFIG_INVALID', {
      operation: 'register',
      failed_parameter: path,
      received_value: valueAt(settings, issue?.path ?? []),
      expected: issue?.message,
      remediation: `Fix ${path} in the [judge] section of your nodwyn config.toml: ${issue?.message ?? 'it does not validate'}.`,
    });
  }
  const { judge } = parsed.data;
  const configured = judge.provider !== undefined;
  const named = { model: judge.model, base_url: judge.base_url, api_key: judge.api_key };
  const options = Object.fromEntries(Object.entries({ ...judge.options, ...named }).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return {
    ...(configured ? { provider: judge.provider } : {}),
    ...(judge.model ? { model: judge.model } : {}),
    options,
    planMode: configured && judge.mode === 'on',
    content: judge.content,
    threshold: judge.threshold,
    timeoutMs: judge.timeout_ms,
    egress: configured && judge.egress === 'on',
  };
}
