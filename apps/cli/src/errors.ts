/** Codes of the envelopes the `nodwyn` command builds itself. */
export const CliCodes = {
  CONFIG_INVALID_TOML: 'CONFIG_INVALID_TOML',
  CONFIG_INVALID: 'CONFIG_INVALID',
  RUN_PROMPT_MISSING: 'RUN_PROMPT_MISSING',
} as const;
