import { join } from 'node:path';
import { parseConfigToml, validateConfig, type Config } from './config.js';
import { dataDir, pluginRoot, trustStorePath } from './paths.js';
import { hasRepoFolderEntries, readRepoFolder, REPO_CONFIG_FILE, REPO_DIR, repoConfigBytes, type RepoFolder } from './repo-folder.js';
import { entryHash } from './trust-hash.js';
import { TrustStore, type TrustRecord } from './trust-store.js';

/**
 * The top-level tables a trusted repository may set. Anything else (`bindings`, `policy`,
 * `distribution`, `provider`, `loop`, tables of its own) is ignored with a notice: the binding table and
 * `policy.allow_insecure_http` decide where a secret may go, and `distribution` decides what code runs,
 * so they come from the person's own files only. An allow-list, so that a key added later is the
 * person's until someone decides a repository may set it.
 */
export const REPO_SETTABLE: readonly string[] = ['tools', 'budgets', 'plugins'];

/** `none`: no `.nodwyn/` (or an empty one) and no root context file; `changed`: trusted once, with other content now. */
export type TrustStatus = 'none' | 'untrusted' | 'changed' | 'trusted';

/** A workspace's `.nodwyn/` snapshot and where it stands. */
export interface RepoTrust {
  readonly folder: RepoFolder;
  readonly status: TrustStatus;
  /** Opened only when there is something to trust, so a damaged store bothers only such workspaces. */
  readonly store?: TrustStore;
  readonly record?: TrustRecord;
}

/** What a repository's `config.toml` sets: the part nodwyn applies, and the keys it ignores. */
export interface RepoSettings {
  readonly config: Config;
  readonly applied: readonly string[];
  readonly ignored: readonly string[];
}

/**
 * The plugins whose `[plugins."<name>"]` section a repository may not set (their manifests say
 * `userOnlyConfig`): they hold secrets, decide where they go, keep them out of the model's context, or
 * shape a sandbox, and a section of theirs could widen exactly that.
 */
export type UserOnlyPlugins = ReadonlySet<string>;

/** Reads `<workspace>/.nodwyn/` and the root context files, and looks them up in the trust store (both found through `env`). */
export function repoTrust(workspace: string, env: NodeJS.ProcessEnv = process.env): RepoTrust {
  const folder = readRepoFolder(workspace, [dataDir(env), pluginRoot(env)]);
  if (folder.entries.length === 0) return { folder, status: 'none' };
  const store = TrustStore.open(trustStorePath(env));
  const record = store.get(workspace);
  const status = record === undefined ? 'untrusted' : record.hash === folder.hash ? 'trusted' : 'changed';
  return { folder, status, store, record };
}

/** What merging a workspace's repository config needs besides the user's config. */
export interface RepoConfigOptions {
  readonly userOnly: UserOnlyPlugins;
  /** Called with one line per thing ignored (untrusted config, keys only the person may set). */
  readonly notice: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
  /** The workspace's trust, when the caller read it already (it reads `.nodwyn/` once, not twice). */
  readonly trust?: RepoTrust;
}

/**
 * The user config with the workspace's trusted repository config merged over it. Untrusted or changed
 * repository config is ignored whole, never in part, with one notice; keys a repository may not set are
 * dropped with another. A trusted `config.toml` that does not parse is an envelope naming it.
 */
export function withRepoConfig(user: Config, workspace: string, options: RepoConfigOptions): Config {
  const { notice } = options;
  const trust = options.trust ?? repoTrust(workspace, options.env);
  // Only context files (AGENTS.md) and no `.nodwyn/`: there is no repository config to apply or ignore.
  if (trust.status === 'none' || !hasRepoFolderEntries(trust.folder)) return user;
  const shown = shownName(trust.folder);
  if (trust.status !== 'trusted') {
    const why = trust.status === 'changed' ? 'changed since you trusted it' : 'not trusted';
    notice(`ignoring ${shown} (${why}; review it and run \`nodwyn trust\`)`);
    return user;
  }
  const settings = repoSettings(trust.folder, options.userOnly);
  if (settings.ignored.length > 0) notice(`ignoring ${settings.ignored.join(', ')} in ${shown} (only your own config may set them)`);
  return mergeConfig(user, settings.config);
}

/** Parses `.nodwyn/config.toml` from the snapshot (the very bytes that were hashed) and splits its keys. */
export function repoSettings(folder: RepoFolder, userOnly: UserOnlyPlugins): RepoSettings {
  const bytes = repoConfigBytes(folder);
  if (bytes === undefined) return { config: {}, applied: [], ignored: [] };
  const path = join(folder.dir, REPO_CONFIG_FILE);
  const { kept, dropped } = splitRepoKeys(parseConfigToml(bytes.toString('utf8'), path), userOnly);
  // Only what will be applied is validated: a key that is ignored anyway must not stop nodwyn.
  return { config: validateConfig(kept, path), applied: keyPaths(kept), ignored: keyPaths(dropped) };
}

/** Splits a repository's parsed config into what it may set and what it may not. */
export function splitRepoKeys(raw: Record<string, unknown>, userOnly: UserOnlyPlugins): { kept: Record<string, unknown>; dropped: Record<string, unknown> } {
  const kept = new Map<string, unknown>();
  const dropped = new Map<string, unknown>();
  for (const [key, value] of Object.entries(raw)) (REPO_SETTABLE.includes(key) ? kept : dropped).set(key, value);
  const plugins = kept.get('plugins');
  if (isTable(plugins)) {
    const own = Object.entries(plugins).filter(([name]) => userOnly.has(name));
    if (own.length > 0) {
      kept.set('plugins', Object.fromEntries(Object.entries(plugins).filter(([name]) => !userOnly.has(name))));
      dropped.set('plugins', Object.fromEntries(own));
    }
  }
  dropUserOnlyShellKeys(kept, dropped);
  return { kept: Object.fromEntries(kept), dropped: Object.fromEntries(dropped) };
}

/** Keys under `[tools.shell]` that hand credentials to commands: only the person's own config sets them. */
export const USER_ONLY_SHELL_KEYS: readonly string[] = ['pass_env'];

function dropUserOnlyShellKeys(kept: Map<string, unknown>, dropped: Map<string, unknown>): void {
  const tools = kept.get('tools');
  const shell = isTable(tools) ? tools.shell : undefined;
  if (!isTable(tools) || !isTable(shell)) return;
  const own = Object.entries(shell).filter(([key]) => USER_ONLY_SHELL_KEYS.includes(key));
  if (own.length === 0) return;
  kept.set('tools', { ...tools, shell: Object.fromEntries(Object.entries(shell).filter(([key]) => !USER_ONLY_SHELL_KEYS.includes(key))) });
  dropped.set('tools', { shell: Object.fromEntries(own) });
}

/**
 * Merges repository config over the user's. Tables merge key by key and the repository's value wins,
 * with one exception: `tools.shell.allow` is the union of both lists, because each is a list of grants
 * and a repository adding `npm test` should not take away the person's own `git status`.
 */
export function mergeConfig(user: Config, repo: Config): Config {
  return mergeTables(user, repo, '') as Config;
}

function mergeTables(base: Readonly<Record<string, unknown>>, over: Readonly<Record<string, unknown>>, at: string): Record<string, unknown> {
  // Built through a Map and fromEntries so a key like `__proto__` stays a plain key.
  const out = new Map(Object.entries(base));
  for (const [key, value] of Object.entries(over)) {
    const path = at ? `${at}.${key}` : key;
    const current = out.get(key);
    if (isTable(current) && isTable(value)) out.set(key, mergeTables(current, value, path));
    else if (path === 'tools.shell.allow' && Array.isArray(current) && Array.isArray(value)) out.set(key, [...new Set([...current, ...value])]);
    else out.set(key, value);
  }
  return Object.fromEntries(out);
}

/** The record that pins trust to this snapshot. */
export function trustRecordFor(folder: RepoFolder): TrustRecord {
  return { hash: folder.hash, trusted_at: new Date().toISOString(), files: folder.entries.map((e) => ({ path: e.path, hash: entryHash(e) })) };
}

/** What changed since `record` was made, one `path (added|changed|removed)` per file, sorted. */
export function changedFiles(folder: RepoFolder, record: TrustRecord): string[] {
  const was = new Map(record.files.map((f) => [f.path, f.hash]));
  const now = new Map(folder.entries.map((e) => [e.path, entryHash(e)]));
  const lines: string[] = [];
  for (const [path, hash] of now) {
    if (!was.has(path)) lines.push(`${path} (added)`);
    else if (was.get(path) !== hash) lines.push(`${path} (changed)`);
  }
  for (const path of was.keys()) if (!now.has(path)) lines.push(`${path} (removed)`);
  return lines.sort();
}

/** `.nodwyn/config.toml` when that is all there is, else the folder. */
export function shownName(folder: RepoFolder): string {
  const only = folder.entries.length === 1 ? folder.entries[0] : undefined;
  return only && only.path !== '.' ? `${REPO_DIR}/${only.path}` : `${REPO_DIR}/`;
}

/** Dotted key paths of every leaf, TOML-quoted where needed: `tools.shell.allow`, `plugins."@a/b".x`. */
export function keyPaths(table: Readonly<Record<string, unknown>>, prefix = ''): string[] {
  return Object.entries(table).flatMap(([key, value]) => {
    const path = `${prefix}${/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key)}`;
    return isTable(value) && Object.keys(value).length > 0 ? keyPaths(value, `${path}.`) : [path];
  });
}

// smol-toml builds tables with a null prototype; zod's output has Object's. Dates and arrays are leaves.
function isTable(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === null || proto === Object.prototype;
}
