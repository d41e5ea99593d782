import { TOOL_ARGS_LIMITS } from '@nodwyn/plugin-api';
import type { z } from '@nodwyn/plugin-api';
import type { SettingFieldSchema } from '@nodwyn/protocol';

/** What one settable key takes, for a console's form. */
export type SettingField = z.infer<typeof SettingFieldSchema>;
/** The settable sections: section (a TOML table path, `provider.openai`) → key → field. */
export type SettingFields = Record<string, Record<string, SettingField>>;

const count = (description: string, min = 1, max?: number): SettingField => ({ type: 'integer', description, min, ...(max === undefined ? {} : { max }) });

/** `[budgets]`: what one turn may spend, as the runtime's config schema bounds it. */
const BUDGETS: Record<string, SettingField> = {
  max_turns: count('Model calls one prompt may make before it stops.'),
  max_tool_calls: count('Tool calls one prompt may make.'),
  max_tokens: count('Tokens (in and out) one prompt may use.'),
  max_wall_ms: count('Milliseconds one prompt may run.'),
  max_repeats: count('Times the same call with the same arguments may repeat before the progress guard stops the loop.', 2),
  window_tokens: count("Tokens of the model's window the log is fitted into."),
  answer_tokens: count('Tokens kept free for the answer.'),
  max_retries: count('Retries of a model call that failed before it streamed.', 0),
  max_cost_usd: { type: 'number', description: 'USD one prompt may cost (more than 0).', min: 0 },
  max_tool_args_bytes: count("Bytes of one tool call's arguments.", 1, TOOL_ARGS_LIMITS.maxBytes),
};

/** `[memory]`: the memory plugin's keys, with its bounds, and the summaries' model. */
const MEMORY: Record<string, SettingField> = {
  cross_session: { type: 'boolean', description: "Lets the model search this project's earlier sessions (search_history)." },
  max_file_bytes: count('Files larger than this are not indexed.', 1024, 64 * 1024 * 1024),
  index_budget_ms: count('Longest a search waits for the repository index, in milliseconds.', 0, 600_000),
  rescan_ms: count('How old the last full check of the files may be before a search starts another, in milliseconds.', 0, 24 * 3600 * 1000),
  summary_model: { type: 'string', description: 'The model that writes summaries, when not the chat model.' },
  summary_provider: { type: 'string', description: 'The provider of summary_model, when not the chat provider.' },
};

/**
 * The sections of the person's config.toml a console may set, and what each key takes. Secrets, bindings,
 * plugin lists and prices are not here: they have their own methods (or need a terminal). `providers` are
 * the ids the distribution offers; each gets a `provider.<id>` section for its model and base URL.
 */
export function settingFields(providers: readonly string[]): SettingFields {
  const fields: SettingFields = {
    provider: { default: { type: 'enum', description: 'The provider every prompt uses unless a session chose its own.', options: [...providers] } },
  };
  for (const id of providers) {
    fields[`provider.${id}`] = {
      model: { type: 'string', description: `The ${id} model prompts use.` },
      base_url: { type: 'string', description: `The API root of ${id}'s server (http:// or https://), when not its usual one.` },
    };
  }
  fields.loop = { default: { type: 'string', description: 'The loop strategy a turn runs (the id a plugin gave its loop).' } };
  fields.budgets = BUDGETS;
  fields.memory = MEMORY;
  fields.distribution = { frontend: { type: 'string', description: 'The front end plain `nodwyn` opens (tui, web, desktop), when the distribution offers it.' } };
  fields.policy = { max_strikes: count('Redaction strikes (secret-shaped model output) before a session stops.') };
  return fields;
}
