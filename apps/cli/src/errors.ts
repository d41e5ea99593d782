/**
 * Codes of the envelopes the `nodwyn` command builds itself. Those of config, the data folder and the
 * trust store are the runtime's (`RUNTIME_ERRORS` in @nodwyn/runtime).
 */
export const CliCodes = {
  /** A command-line option's value is not what the option takes (`--max-turns 0`, `--at abc`). */
  OPTION_INVALID: 'OPTION_INVALID',
  RUN_PROMPT_MISSING: 'RUN_PROMPT_MISSING',
  JUDGE_NOT_CONFIGURED: 'JUDGE_NOT_CONFIGURED',
  /** `nodwyn trust` in a workspace without a `.nodwyn/` folder, or with an empty one. */
  TRUST_NOTHING_TO_TRUST: 'TRUST_NOTHING_TO_TRUST',
  /** `nodwyn trust` with nobody at a terminal to confirm, and no `--yes`. */
  TRUST_CONFIRMATION_REQUIRED: 'TRUST_CONFIRMATION_REQUIRED',
  /** `.nodwyn/` holds something nodwyn cannot review: a symlink, a device, too many or too large files. */
  REPO_CONFIG_UNREVIEWABLE: 'REPO_CONFIG_UNREVIEWABLE',
} as const;
