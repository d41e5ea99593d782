import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { sandboxError } from './errors.js';

/** Linux gives up after 40 links; so do we, for the links we follow by hand. */
const MAX_SYMLINK_HOPS = 40;

/** The folder no run may touch, matched in any case (case-insensitive file systems would let `.NODWYN` in). */
const RESERVED = '.nodwyn';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function reserved(root: string, path: string): boolean {
  return relative(root, path)
    .split(sep)
    .some((segment) => segment.toLowerCase() === RESERVED);
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** `realpath`, extended to paths that do not exist yet and to dangling symlinks: where a write would land. */
async function landing(path: string, hops: number): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const stats = await lstat(path).catch((error: unknown) => {
    if (isMissing(error)) return undefined;
    throw error;
  });
  if (stats?.isSymbolicLink()) {
    if (hops >= MAX_SYMLINK_HOPS) throw Object.assign(new Error(`too many symlinks in ${path}`), { code: 'ELOOP' });
    return landing(resolve(dirname(path), await readlink(path)), hops + 1);
  }
  const parent = dirname(path);
  return parent === path ? path : join(await landing(parent, hops + 1), basename(path));
}

/**
 * Proves a path the code gave stays in the workspace and out of `.nodwyn/`, by its spelling and after
 * every symlink is resolved, and answers it relative to the workspace's real path, for the primitive the
 * door calls next. The primitive confines the path again; this check is the runner's own, because
 * tools-core does not know about `.nodwyn/` and the runner must not depend on another plugin's rules.
 */
export async function confinePath(workspace: string, input: string, door: string): Promise<string> {
  const failure = { operation: door, failed_parameter: '$.path', received_value: input };
  if (input === '' || input.includes('\0')) {
    throw sandboxError('SANDBOX_DOOR_ARGUMENT', { ...failure, remediation: `${door} takes a non-empty path relative to the workspace, without NUL bytes.` });
  }
  const outside = () =>
    sandboxError('SANDBOX_PATH_OUTSIDE', {
      ...failure,
      expected: 'a path relative to the workspace that stays inside it',
      remediation: `${door} reaches only files inside the workspace, by relative paths; "${input}" is absolute, climbs out with "..", or leads out through a symlink.`,
    });
  const refusedReserved = () =>
    sandboxError('SANDBOX_PATH_RESERVED', {
      ...failure,
      remediation: `${door} never reaches .nodwyn/ (nodwyn's own configuration), in any spelling or through a symlink; use another folder.`,
    });
  if (isAbsolute(input)) throw outside();
  const root = await realpath(workspace);
  const lexical = resolve(root, input);
  if (!inside(root, lexical)) throw outside();
  if (reserved(root, lexical)) throw refusedReserved();
  const real = await landing(lexical, 0).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    throw sandboxError('SANDBOX_DOOR_ARGUMENT', { ...failure, remediation: `${door} could not resolve "${input}" (${code}); pass a plain path to a file in the workspace.` }, error);
  });
  if (!inside(root, real)) throw outside();
  if (reserved(root, real)) throw refusedReserved();
  return relative(root, real).split(sep).join('/') || '.';
}
