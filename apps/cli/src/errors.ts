/**
 * Codes of the envelopes the `nodwyn` command builds itself. Those of config, the data folder and the
 * trust store are the runtime's (`RUNTIME_ERRORS` in @nodwyn/runtime).
 */
export const CliCodes = {
  /** A command-line option's value is not what the option takes (`--max-turns 0`, `--at abc`). */
  OPTION_INVALID: 'OPTION_INVALID',
  RUN_PROMPT_MISSING: 'RUN_PROMPT_MISSING',
  /** The prompt read from stdin (`nodwyn run -`, or a pipe) is over `MAX_STDIN_PROMPT_BYTES`. */
  RUN_PROMPT_TOO_LARGE: 'RUN_PROMPT_TOO_LARGE',
  /** The key piped to `nodwyn setup` is over what a key can be. */
  SETUP_KEY_TOO_LARGE: 'SETUP_KEY_TOO_LARGE',
  /** The distribution names no front end, or no started plugin provides the one it names. */
  FRONTEND_NOT_FOUND: 'FRONTEND_NOT_FOUND',
  /** The agent answered a request with a JSON-RPC error that carries no envelope (an unknown method, say). */
  AGENT_REQUEST_FAILED: 'AGENT_REQUEST_FAILED',
  JUDGE_NOT_CONFIGURED: 'JUDGE_NOT_CONFIGURED',
  /** `nodwyn trust` in a workspace without a `.nodwyn/` folder, or with an empty one. */
  TRUST_NOTHING_TO_TRUST: 'TRUST_NOTHING_TO_TRUST',
  /** `nodwyn trust` with nobody at a terminal to confirm, and no `--yes`. */
  TRUST_CONFIRMATION_REQUIRED: 'TRUST_CONFIRMATION_REQUIRED',
  /** `.nodwyn/` holds something nodwyn cannot review: a symlink, a device, too many or too large files. */
  REPO_CONFIG_UNREVIEWABLE: 'REPO_CONFIG_UNREVIEWABLE',
  /** `nodwyn log revoke-summary` names an event that is not a `summary.added` of the session. */
  SUMMARY_NOT_FOUND: 'SUMMARY_NOT_FOUND',
  /** `nodwyn web` (or a front end that needs the daemon) started `nodwyn serve`, which exited or did not come up in time. */
  DAEMON_START_FAILED: 'DAEMON_START_FAILED',
  /** The distribution file (`--distribution`, `NODWYN_DISTRIBUTION`) is missing or cannot be read. */
  DISTRIBUTION_FILE_UNREADABLE: 'DISTRIBUTION_FILE_UNREADABLE',
  /** The distribution file has a key it does not take, or a value of the wrong kind. */
  DISTRIBUTION_FILE_INVALID: 'DISTRIBUTION_FILE_INVALID',
  /** `nodwyn plugins approve|update|remove` names a plugin no distribution or config names, or one not installed. */
  PLUGIN_NOT_INSTALLED: 'PLUGIN_NOT_INSTALLED',
  /** `nodwyn plugins approve|add|update` with nobody at a terminal to confirm, and no `--yes`. */
  PLUGIN_CONFIRMATION_REQUIRED: 'PLUGIN_CONFIRMATION_REQUIRED',
  /** `npm install` (or uninstall, update) for `nodwyn plugins add|remove|update` failed. */
  PLUGIN_INSTALL_FAILED: 'PLUGIN_INSTALL_FAILED',
  /** `nodwyn dist build`: a plugin the file names is neither first-party nor installed where it looks. */
  DIST_PLUGIN_NOT_FOUND: 'DIST_PLUGIN_NOT_FOUND',
  /** `nodwyn dist build`: the version of a plugin found is outside the range the file gives it. */
  DIST_RANGE_NOT_SATISFIED: 'DIST_RANGE_NOT_SATISFIED',
  /** `nodwyn dist build --out DIR`: DIR holds files and `--force` was not given. */
  DIST_OUT_NOT_EMPTY: 'DIST_OUT_NOT_EMPTY',
  /** `nodwyn dist build` run from sources, or from a bundle: it bundles the built CLI, which it cannot find. */
  DIST_CLI_NOT_BUILT: 'DIST_CLI_NOT_BUILT',
  /** `nodwyn dist build`: esbuild could not bundle the distribution (a plugin import that does not resolve, say). */
  DIST_BUNDLE_FAILED: 'DIST_BUNDLE_FAILED',
  /** `nodwyn plugin new --kind K` names a kind there is no template for. */
  PLUGIN_KIND_INVALID: 'PLUGIN_KIND_INVALID',
  /** `nodwyn plugin new NAME`: NAME is not an npm package name. */
  PLUGIN_NAME_INVALID: 'PLUGIN_NAME_INVALID',
  /** `nodwyn plugin new`: the folder to write into exists and holds something (or is a file). */
  PLUGIN_DIR_NOT_EMPTY: 'PLUGIN_DIR_NOT_EMPTY',
  /** `nodwyn mcp list|approve` while the MCP plugin is disabled or failed to load. */
  MCP_PLUGIN_MISSING: 'MCP_PLUGIN_MISSING',
} as const;
