import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The file-system mechanics every plugin that confines paths to the workspace needs (tools-core's file
 * tools, the sandbox runners' file doors), in one place. Each caller keeps its own rules and envelopes.
 */

/** Linux gives up after 40 links; so do we, for the links followed by hand. */
const MAX_SYMLINK_HOPS = 40;

/** nodwyn's own folder in a workspace (repository config), which sandboxed code never reaches. */
export const NODWYN_FOLDER = '.nodwyn';

/** One of nodwyn's own folders, which no file tool and no sandbox door may reach (docs/architecture.md §6). */
export interface ProtectedFolder {
  /** Absolute path; checks compare its real path (see `realProtectedFolders`). */
  readonly path: string;
  /** What the folder is, for envelopes: `nodwyn's data folder ($NODWYN_HOME)`. */
  readonly name: string;
}

/** How envelopes name the workspace's own `.nodwyn/`. */
export const WORKSPACE_NODWYN_FOLDER_NAME = "the workspace's .nodwyn/ folder (its nodwyn configuration)";

/**
 * The folders to refuse for one call, by real path: the workspace's `.nodwyn/` and each of `folders`.
 * Resolved once per call, so a walk can test every entry without touching the disk again; a folder that
 * does not exist yet is judged by where it would be created.
 */
export async function realProtectedFolders(workspace: string, folders: readonly ProtectedFolder[] = []): Promise<ProtectedFolder[]> {
  const all = [{ path: join(workspace, NODWYN_FOLDER), name: WORKSPACE_NODWYN_FOLDER_NAME }, ...folders];
  return Promise.all(all.map(async (folder) => ({ name: folder.name, path: await realpathLoose(resolve(folder.path)) })));
}

/**
 * The protected folder that holds `real` (a real path), if any. Compared without regard to case, so
 * `.NODWYN/` on a case-insensitive file system (macOS, Windows) is caught too; on Linux that refuses a
 * differently spelled folder as well, which costs nothing a person needs.
 */
export function protectedFolderOf(real: string, folders: readonly ProtectedFolder[]): ProtectedFolder | undefined {
  const lower = real.toLowerCase();
  return folders.find((folder) => isInside(folder.path.toLowerCase(), lower));
}

/** True when `path` is `root` or below it. Both must be absolute and normalized. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** True when some folder of `path` below `root` is `.nodwyn`, in any case (case-insensitive file systems). */
export function touchesNodwynFolder(root: string, path: string): boolean {
  return relative(root, path)
    .split(sep)
    .some((segment) => segment.toLowerCase() === NODWYN_FOLDER);
}

/** True for the errors of a path component that does not exist. */
export function isMissingPathError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * `realpath`, extended to paths that do not exist yet and to dangling symlinks: where a write would land.
 * A missing path is its nearest existing ancestor's real path plus the missing tail; a dangling symlink
 * is judged by its target. A loop or a refusal is a real answer and is thrown.
 */
export async function realpathLoose(path: string, hops = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if (!isMissingPathError(error)) throw error;
  }
  const stats = await lstat(path).catch((error: unknown) => {
    if (isMissingPathError(error)) return undefined;
    throw error;
  });
  if (stats?.isSymbolicLink()) {
    if (hops >= MAX_SYMLINK_HOPS) throw Object.assign(new Error(`too many symlinks in ${path}`), { code: 'ELOOP' });
    return realpathLoose(resolve(dirname(path), await readlink(path)), hops + 1);
  }
  const parent = dirname(path);
  return parent === path ? path : join(await realpathLoose(parent, hops), basename(path));
}
