import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { folderHash, type FolderEntry } from './trust-hash.js';

/** The folder a repository keeps its nodwyn configuration in, at the root of the workspace. */
export const REPO_DIR = '.nodwyn';
/** The one file of it that nodwyn reads today; every file of the folder is part of what is trusted. */
export const REPO_CONFIG_FILE = 'config.toml';
/**
 * The repository's context files at its root. They instruct the model (the brief quotes them), so they
 * are part of what a person trusts: snapshotted beside `.nodwyn/` as `../AGENTS.md`, and an edit to one
 * asks for trust again. A symlink among them is left out (the brief never follows one).
 */
export const REPO_CONTEXT_FILES: readonly string[] = ['AGENTS.md', 'CLAUDE.md'];
/**
 * Repository configuration other agents' formats keep at the root: `.mcp.json` names MCP servers to run.
 * Trusted with the rest (snapshotted as `../.mcp.json`), so an edit to it asks for trust again.
 */
export const REPO_ROOT_CONFIG_FILES: readonly string[] = ['.mcp.json'];
/** How a root context file is named in the snapshot: relative to `.nodwyn/`, so no name can clash. */
const ROOT_PREFIX = '../';

// A configuration folder is a few small text files. The limits keep a hostile repository from making
// every start read a huge tree, and keep what a person is asked to review reviewable.
const MAX_ENTRIES = 256;
const MAX_BYTES = 1024 * 1024;

/**
 * A snapshot of `<workspace>/.nodwyn/`, the root context files and `.mcp.json`: the bytes that were hashed
 * are the bytes that get loaded.
 */
export interface RepoFolder {
  readonly workspace: string;
  readonly dir: string;
  /** True when `.nodwyn/` is the person's own nodwyn folder (e.g. `NODWYN_HOME=~/.nodwyn`, run in `~`). */
  readonly own: boolean;
  readonly entries: readonly FolderEntry[];
  readonly hash: string;
}

/**
 * Reads `<workspace>/.nodwyn/` once. Symlinks are never followed and are recorded as unreviewable, as are
 * devices, unreadable files and files past the size limits: they change the hash but are never read.
 * `ownFolders` are the data and config folders: when `.nodwyn/` holds one of them it is not a
 * repository's configuration (nodwyn writes there on every run), so the snapshot is empty.
 */
export function readRepoFolder(workspace: string, ownFolders: readonly string[]): RepoFolder {
  const dir = join(workspace, REPO_DIR);
  const top = lstatOrUndefined(dir);
  const own = top?.isDirectory() === true && ownFolders.some((folder) => isInside(realOrResolved(folder), realpathSync(dir)));
  const entries: FolderEntry[] = [];
  const walk = new FolderWalk(entries);
  if (top && !own) {
    if (top.isDirectory()) walk.walk(dir, '');
    else entries.push(unreviewable('.', top.isFile() ? 'a file, not a folder' : describe(dir, top)));
  }
  for (const name of [...REPO_CONTEXT_FILES, ...REPO_ROOT_CONFIG_FILES]) walk.rootFile(join(workspace, name), `${ROOT_PREFIX}${name}`);
  return { workspace, dir, own, entries, hash: folderHash(entries) };
}

/** True when the snapshot holds anything of `.nodwyn/` itself (not only root context files). */
export function hasRepoFolderEntries(folder: RepoFolder): boolean {
  return folder.entries.some((e) => !e.path.startsWith(ROOT_PREFIX));
}

/** The entries that nodwyn refused to read; a folder with any of them cannot be trusted. */
export function unreviewableEntries(folder: RepoFolder): FolderEntry[] {
  return folder.entries.filter((e) => e.kind === 'unreviewable');
}

/** The bytes of `.nodwyn/config.toml` from the snapshot, if it is there. */
export function repoConfigBytes(folder: RepoFolder): Buffer | undefined {
  return folder.entries.find((e) => e.path === REPO_CONFIG_FILE && e.kind === 'file')?.data;
}

class FolderWalk {
  #bytesLeft = MAX_BYTES;
  #full = false;

  constructor(private readonly out: FolderEntry[]) {}

  walk(abs: string, rel: string): void {
    // Sorted, so that where the entry limit cuts is the same on every run.
    for (const name of listOrRecord(abs, rel, this.out).sort()) {
      if (this.#full) return;
      if (this.out.length >= MAX_ENTRIES) {
        this.#full = true;
        this.out.push(unreviewable(`${rel || '.'}/${name}`, `more than ${MAX_ENTRIES} entries; nodwyn stops reading here`));
        return;
      }
      const childAbs = join(abs, name);
      const path = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(childAbs);
      if (stat.isDirectory()) this.walk(childAbs, path);
      else this.out.push(this.#fileEntry(childAbs, path, stat));
    }
  }

  /** A context file at the workspace's root, when it is there and not a symlink. */
  rootFile(abs: string, path: string): void {
    const stat = lstatOrUndefined(abs);
    if (stat && !stat.isSymbolicLink()) this.out.push(this.#fileEntry(abs, path, stat));
  }

  #fileEntry(abs: string, path: string, stat: Stats): FolderEntry {
    if (!stat.isFile()) return unreviewable(path, describe(abs, stat));
    if (stat.size > this.#bytesLeft) return unreviewable(path, `a file of ${stat.size} bytes, past the ${MAX_BYTES} bytes nodwyn reviews in all`);
    try {
      const data = readFileSync(abs);
      this.#bytesLeft -= data.length;
      return { path, kind: 'file', data };
    } catch (error) {
      return unreviewable(path, `unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
}

function listOrRecord(abs: string, rel: string, out: FolderEntry[]): string[] {
  try {
    return readdirSync(abs);
  } catch (error) {
    out.push(unreviewable(rel || '.', `an unreadable folder (${(error as NodeJS.ErrnoException).code ?? 'error'})`));
    return [];
  }
}

function unreviewable(path: string, description: string): FolderEntry {
  return { path, kind: 'unreviewable', data: Buffer.from(description, 'utf8') };
}

function describe(abs: string, stat: Stats): string {
  if (stat.isSymbolicLink()) return `a symlink to ${readlinkSync(abs)}`;
  return 'not a regular file or folder';
}

// lstat, not exists: existsSync follows links, and a dangling `.nodwyn` symlink must not look like nothing.
function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function realOrResolved(path: string): string {
  return existsSync(path) ? realpathSync(path) : resolve(path);
}

function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}
