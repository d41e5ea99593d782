import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Symlinks followed before giving up (as the kernel's `realpathLoose`). */
const MAX_HOPS = 40;

/**
 * The real path of `path` (absolute), even when it does not exist yet: its nearest existing ancestor's
 * real path plus the missing tail, and a dangling symlink by where its target would be. Synchronous,
 * for a primitive's `effect`, which the guard calls without awaiting.
 */
export function realPathLooseSync(path: string, hops = 0): string {
  try {
    return realpathSync.native(path);
  } catch {
    // Missing, or a dangling link: resolved below.
  }
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    stats = undefined;
  }
  if (stats?.isSymbolicLink() && hops < MAX_HOPS) return realPathLooseSync(resolve(dirname(path), readlinkSync(path)), hops + 1);
  const parent = dirname(path);
  return parent === path ? path : join(realPathLooseSync(parent, hops), basename(path));
}

/** The real folder a file tool's `path` (relative to the workspace) would change: what an edit approval covers. */
export function realFolderOf(workspace: string, path: string): string {
  return dirname(realPathLooseSync(resolve(workspace, path)));
}
