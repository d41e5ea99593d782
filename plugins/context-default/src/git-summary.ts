import { execFile } from 'node:child_process';

/** The branch and a short status of the workspace's repository, or why there is none. */
export interface GitSummary {
  readonly branch?: string;
  /** `3 changed, 1 untracked (src/a.ts, …)`, or `clean`. */
  readonly status?: string;
  /** Set when the workspace is not a git repository (or git could not be run). */
  readonly none?: string;
}

const TIMEOUT_MS = 3000;
const SHOWN_PATHS = 10;

// Repository config can make git run programs (`core.fsmonitor`, a filter's `clean`, which `status` may
// call on a file it thinks changed). A brief is read on every turn of an untrusted repository too, so
// those are switched off in command scope, after the repository's own config; reading config runs nothing.
const REPOSITORY_FILTER = /^filter\..+\.(clean|smudge|process)$/i;

function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env, timeout: TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (error, stdout) => resolve(error ? undefined : stdout));
  });
}

function hardenedEnv(filterKeys: readonly string[]): NodeJS.ProcessEnv {
  const settings: [string, string][] = [['core.fsmonitor', 'false'], ['core.hooksPath', '/dev/null'], ...filterKeys.map((key): [string, string] => [key, ''])];
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' };
  const base = Number(env.GIT_CONFIG_COUNT ?? 0) || 0;
  settings.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${base + i}`] = key;
    env[`GIT_CONFIG_VALUE_${base + i}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(base + settings.length);
  return env;
}

function filterKeys(list: string): string[] {
  const fields = list.split('\0');
  const keys: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const key = fields[i + 1]!.split('\n', 1)[0]!;
    if ((fields[i] === 'local' || fields[i] === 'worktree') && REPOSITORY_FILTER.test(key)) keys.push(key);
  }
  return keys;
}

function statusLine(porcelain: string): string {
  const entries = porcelain.split('\0').filter((e) => e.length > 3);
  // A rename's entry is followed by its old path, which has no status of its own.
  const paths: string[] = [];
  let untracked = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.startsWith('??')) untracked++;
    paths.push(entry.slice(3));
    if (/^[RC]/.test(entry)) i++;
  }
  if (paths.length === 0) return 'clean';
  const changed = paths.length - untracked;
  const more = paths.length > SHOWN_PATHS ? ', …' : '';
  return `${changed} changed, ${untracked} untracked (${paths.slice(0, SHOWN_PATHS).join(', ')}${more})`;
}

/** Reads the branch and status of the repository at `cwd` with git, hardened as above. */
export async function gitSummary(cwd: string): Promise<GitSummary> {
  const plain = hardenedEnv([]);
  const list = await git(cwd, ['config', '--list', '--show-scope', '-z'], plain);
  const env = hardenedEnv(list === undefined ? [] : filterKeys(list));
  const inside = await git(cwd, ['rev-parse', '--is-inside-work-tree'], env);
  if (inside?.trim() !== 'true') return { none: 'not a git repository (or git is not installed)' };
  // symbolic-ref names the branch before its first commit too; it fails only on a detached HEAD.
  const branch = (await git(cwd, ['symbolic-ref', '--short', '-q', 'HEAD'], env))?.trim();
  const porcelain = await git(cwd, ['status', '--porcelain=v1', '-z', '--ignore-submodules=all', '--untracked-files=normal'], env);
  return {
    branch: branch || 'detached HEAD',
    status: porcelain === undefined ? 'unknown (git status failed or took too long)' : statusLine(porcelain),
  };
}
