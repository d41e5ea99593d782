/** Codes of the envelopes the `nodwyn` command builds itself. */
export const CliCodes = {
  CONFIG_INVALID_TOML: 'CONFIG_INVALID_TOML',
  CONFIG_INVALID: 'CONFIG_INVALID',
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
