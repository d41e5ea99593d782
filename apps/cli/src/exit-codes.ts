/**
 * Exit codes of the `nodwyn` command. Scripts rely on them; changing one is a breaking change.
 *
 * | code | meaning |
 * |------|---------|
 * | 0    | success: the model answered, or the command did what it was asked |
 * | 1    | a check failed (e.g. `log verify` found tampering) |
 * | 2    | usage error: unknown command or option, missing argument, an option value it does not take |
 * | 3    | failure with an envelope (bad script, provider error, denied call that ended the run, bad config) |
 * | 4    | stopped by a budget or the progress guard |
 * | 130  | cancelled (SIGINT, SIGTERM or SIGHUP) |
 */
export const EXIT = {
  OK: 0,
  CHECK_FAILED: 1,
  USAGE: 2,
  ENVELOPE: 3,
  STOPPED: 4,
  CANCELLED: 130,
} as const;
