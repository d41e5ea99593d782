/** What a run's command line is made from. */
export interface DenoArgvInput {
  /** The harness module, in the run's temp folder (outside the workspace). */
  readonly harness: string;
  /** Checked hosts (`normalizeNetHosts`); empty: no network flag at all. */
  readonly net: readonly string[];
  readonly memoryMb: number;
}

/**
 * Flags every run gets: never ask (a prompt would hang the run), print nothing of Deno's own, read no
 * deno.json, package.json or lock file from around the harness, load no module from the network or npm
 * (a remote import is a request to a host outside the grant, one that carries data in its URL), and keep
 * no V8 code cache (the run's DENO_DIR is deleted after it anyway). No `--allow-read`, `--allow-write`,
 * `--allow-run`, `--allow-env`, `--allow-ffi`, `--allow-sys`, `--allow-import` or `--allow-all`, ever:
 * files are reached only through the host's doors.
 */
export const BASE_FLAGS = ['run', '--no-prompt', '--quiet', '--no-config', '--no-lock', '--no-remote', '--no-npm', '--no-code-cache'] as const;

/**
 * The exact argv of `deno` for one run, derived from the grants alone: `--allow-net=<hosts>` only when
 * hosts are granted (a run granted none gets no net flag, so every connection is refused), and the heap
 * bounded by `--max-old-space-size`. The read and write grants add no flag: the host serves them.
 */
export function denoArgv(input: DenoArgvInput): string[] {
  const argv: string[] = [...BASE_FLAGS, `--v8-flags=--max-old-space-size=${Math.max(1, Math.ceil(input.memoryMb))}`];
  if (input.net.length > 0) argv.push(`--allow-net=${input.net.join(',')}`);
  argv.push(input.harness);
  return argv;
}
