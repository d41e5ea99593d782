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
