import { join } from 'node:path';
import { denoError } from './errors.js';

/** What a run's command line is made from. */
export interface DenoArgvInput {
  /** The harness module, in the run's temp folder (outside the workspace). */
  readonly harness: string;
  /** The workspace, a real path. */
  readonly workspace: string;
  readonly read: boolean;
  readonly write: boolean;
  /** Checked hosts (`normalizeNetHosts`); empty: no network flag at all. */
  readonly net: readonly string[];
  readonly memoryMb: number;
  /** Paths inside the workspace to withhold besides `.nodwyn/` (symlinks, nodwyn's data directory). */
  readonly denyRead?: readonly string[];
  readonly denyWrite?: readonly string[];
}

/**
 * Flags every run gets: never ask (a prompt would hang the run), print nothing of Deno's own, read no
 * deno.json, package.json or lock file from around the harness, load no module from the network or npm
 * (a remote import is a request to a host outside the grant, one that carries data in its URL), and keep
 * no V8 code cache (the run's DENO_DIR is deleted after it anyway). No `--allow-run`, `--allow-env`,
 * `--allow-ffi`, `--allow-sys`, `--allow-import` or `--allow-all`, ever.
 */
export const BASE_FLAGS = ['run', '--no-prompt', '--quiet', '--no-config', '--no-lock', '--no-remote', '--no-npm', '--no-code-cache'] as const;

/**
 * The exact argv of `deno` for one run, derived from the grants alone: `--allow-read=<workspace>` only
 * with read, `--allow-write=<workspace>` only with write, each with `--deny-…=<workspace>/.nodwyn` and the
 * extra denials after it, and `--allow-net=<hosts>` only when hosts are granted (a run granted none gets
 * no net flag, so every connection is refused). The heap is bounded by `--max-old-space-size`.
 *
 * @throws EnvelopeError SANDBOX_PATH_UNSUPPORTED when a path holds a comma: Deno splits flag values on
 *   commas and has no escape, so `--deny-read=/a,b` would deny `/a` and `b` and leave `/a,b` open
 */
export function denoArgv(input: DenoArgvInput): string[] {
  const reserved = join(input.workspace, '.nodwyn');
  const argv: string[] = [...BASE_FLAGS, `--v8-flags=--max-old-space-size=${Math.max(1, Math.ceil(input.memoryMb))}`];
  if (input.read) argv.push(flag('allow-read', input.workspace), ...[reserved, ...(input.denyRead ?? [])].map((path) => flag('deny-read', path)));
  if (input.write) argv.push(flag('allow-write', input.workspace), ...[reserved, ...(input.denyWrite ?? [])].map((path) => flag('deny-write', path)));
  if (input.net.length > 0) argv.push(`--allow-net=${input.net.join(',')}`);
  argv.push(input.harness);
  return argv;
}

function flag(name: string, path: string): string {
  if (path.includes(',')) {
    throw denoError('SANDBOX_PATH_UNSUPPORTED', {
      received_value: path,
      expected: 'paths without commas',
      remediation: `Deno's --${name} flag cannot name a path with a comma (it splits on commas), so this run cannot be contained; rename the folder or symlink, or run the capability without file grants.`,
    });
  }
  return `--${name}=${path}`;
}
