/** Codes of the envelopes the `nodwyn` command builds itself. */
export const CliCodes = {
  CONFIG_INVALID_TOML: 'CONFIG_INVALID_TOML',
  CONFIG_INVALID: 'CONFIG_INVALID',
  /** `config.toml` is a folder (or something else that is not a file). */
  CONFIG_NOT_A_FILE: 'CONFIG_NOT_A_FILE',
  /** `config.toml` exists but cannot be read (permissions). */
  CONFIG_UNREADABLE: 'CONFIG_UNREADABLE',
  /** The data folder (`$NODWYN_HOME`, or the XDG data dir) is a file, or lies under one. */
  HOME_NOT_A_DIRECTORY: 'HOME_NOT_A_DIRECTORY',
  /** The data folder could not be created (permissions). */
  HOME_UNWRITABLE: 'HOME_UNWRITABLE',
  /** A command-line option's value is not what the option takes (`--max-turns 0`, `--at abc`). */
  OPTION_INVALID: 'OPTION_INVALID',
  RUN_PROMPT_MISSING: 'RUN_PROMPT_MISSING',
  JUDGE_NOT_CONFIGURED: 'JUDGE_NOT_CONFIGURED',
  /** `trust.json` is not JSON or not in the shape nodwyn writes. */
  TRUST_STORE_CORRUPT: 'TRUST_STORE_CORRUPT',
  /** `trust.json` exists but cannot be read (permissions, a folder in its place). */
  TRUST_STORE_UNREADABLE: 'TRUST_STORE_UNREADABLE',
  /** `trust.json` could not be written. */
  TRUST_STORE_UNWRITABLE: 'TRUST_STORE_UNWRITABLE',
  /** `nodwyn trust` in a workspace without a `.nodwyn/` folder, or with an empty one. */
  TRUST_NOTHING_TO_TRUST: 'TRUST_NOTHING_TO_TRUST',
  /** `nodwyn trust` with nobody at a terminal to confirm, and no `--yes`. */
  TRUST_CONFIRMATION_REQUIRED: 'TRUST_CONFIRMATION_REQUIRED',
  /** `.nodwyn/` holds something nodwyn cannot review: a symlink, a device, too many or too large files. */
  REPO_CONFIG_UNREVIEWABLE: 'REPO_CONFIG_UNREVIEWABLE',
} as const;
