/** What the TUI was asked to open, from `launch.args`. */
export interface TuiArgs {
  /** `--session ID`: continue that session. */
  readonly session?: string;
  /** `--pick`: show this workspace's sessions to choose from first. */
  readonly pick: boolean;
  /** `--attached`: the client is a daemon's, so its connection state is shown. */
  readonly attached: boolean;
  /** Arguments the TUI does not know, reported once. */
  readonly unknown: readonly string[];
}

/**
 * Reads the front end's arguments: `['--session', ID]`, `['--pick']`, `[]` (a new session, created
 * with the first prompt), each optionally with `--attached`. `--session=ID` is read too.
 */
export function parseTuiArgs(args: readonly string[]): TuiArgs {
  let session: string | undefined;
  let pick = false;
  let attached = false;
  const unknown: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--session' && args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) session = args[++i];
    else if (arg.startsWith('--session=') && arg.length > '--session='.length) session = arg.slice('--session='.length);
    else if (arg === '--pick') pick = true;
    else if (arg === '--attached') attached = true;
    else unknown.push(arg);
  }
  return { ...(session !== undefined ? { session } : {}), pick: pick && session === undefined, attached, unknown };
}
