import {
  isInside,
  protectedFolderOf,
  realpathLoose,
  realProtectedFolders,
  touchesNodwynFolder,
  WORKSPACE_NODWYN_FOLDER_NAME,
  type PrimitiveCallContext,
  type ProtectedFolder,
} from '@nodwyn/plugin-api';
import type { Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { toolsFail } from './errors.js';
import { fsError, type FsErrorContext } from './fs-errors.js';

/** What a file tool needs of its call to confine a path: the workspace and nodwyn's own folders. */
export type WorkspaceScope = Pick<PrimitiveCallContext, 'workspace' | 'protectedFolders'>;

/** A path the model gave, proven to stay inside the workspace and out of nodwyn's own folders. */
export interface WorkspacePath {
  /** The real workspace root. */
  readonly root: string;
  /** nodwyn's folders by real path (the workspace's `.nodwyn/` first), for walks to leave out. */
  readonly protected: readonly ProtectedFolder[];
  /** The real path: symlinks resolved, and for a path that does not exist yet, its missing tail appended. */
  readonly real: string;
  /** The path as the model spelled it, relative to the workspace with `/` separators (`.` for the root). */
  readonly display: string;
}

/** `path` relative to `root`, with `/` separators, `.` for the root itself. */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

/**
 * Resolves `input` against the workspace and proves it stays inside, by spelling and after every symlink
 * is resolved. A path that does not exist yet is judged by where it would be created: its nearest existing
 * ancestor's real path plus the missing tail, and a dangling symlink by where its target would be. So a
 * symlinked parent directory or a dangling link to `/etc/x` cannot carry a write out of the workspace.
 * nodwyn's own folders (any `.nodwyn/`, the data and config folders) are refused the same two ways,
 * without regard to case: what they hold (bindings, keys, plugins) decides the agent's authority.
 *
 * @param param the argument that named the path, for the envelope (`$.path`).
 */
export async function resolveInWorkspace(scope: WorkspaceScope, input: string, operation: string, param = '$.path'): Promise<WorkspacePath> {
  const failure = { operation, failed_parameter: param, received_value: input };
  if (input.includes('\0')) {
    toolsFail('PATH_INVALID', { ...failure, remediation: 'The path holds a NUL byte; pass a plain path relative to the workspace.' });
  }
  const root = await realpath(scope.workspace);
  const folders = await realProtectedFolders(root, scope.protectedFolders);
  const lexical = resolve(root, input);
  if (!isInside(root, lexical)) {
    toolsFail('PATH_OUTSIDE_WORKSPACE', {
      ...failure,
      expected: `a path inside ${root}`,
      remediation: `Only files inside the workspace (${root}) are reachable; pass a path relative to it, without leading '..'.`,
    });
  }
  const display = displayPath(root, lexical);
  refuseProtected(root, lexical, folders, { ...failure, display });
  const real = await realpathLoose(lexical).catch((error: unknown) => {
    throw fsError(error, { operation, display, expects: 'file', param });
  });
  if (!isInside(root, real)) {
    toolsFail('PATH_SYMLINK_ESCAPE', {
      ...failure,
      expected: `a path whose symlinks stay inside ${root}`,
      remediation: `${display} goes through a symlink that points outside the workspace; use the real path of a file inside it.`,
    });
  }
  refuseProtected(root, real, folders, { ...failure, display });
  return { root, protected: folders, real, display };
}

/** True when a walk must leave `path` (a real path) out: it is, or lies in, one of nodwyn's folders. */
export function isProtected(target: WorkspacePath, path: string): boolean {
  return touchesNodwynFolder(target.root, path) || protectedFolderOf(path, target.protected) !== undefined;
}

function refuseProtected(
  root: string,
  path: string,
  folders: readonly ProtectedFolder[],
  failure: { operation: string; failed_parameter: string; received_value: string; display: string },
): void {
  const name = isInside(root, path) && touchesNodwynFolder(root, path) ? WORKSPACE_NODWYN_FOLDER_NAME : protectedFolderOf(path, folders)?.name;
  if (name === undefined) return;
  const { display, ...rest } = failure;
  toolsFail('PATH_PROTECTED', {
    ...rest,
    expected: 'a path outside nodwyn\'s own folders',
    remediation:
      `${display} lies in ${name}. nodwyn's file tools never read or change its own folders (they hold its bindings, keys, ` +
      'log and plugins, which only the person sets); work on the project\'s files instead.',
  });
}

/**
 * Stats a resolved path that must exist; with `expects: 'directory'`, it must be a directory too.
 * Missing paths and refusals become envelopes that name the path as the model gave it.
 */
export async function statExisting(target: WorkspacePath, operation: string, expects: FsErrorContext['expects']): Promise<Stats> {
  const stats = await stat(target.real).catch((error: unknown) => {
    throw fsError(error, { operation, display: target.display, expects });
  });
  if (expects === 'directory' && !stats.isDirectory()) {
    toolsFail('PATH_NOT_DIRECTORY', {
      operation,
      failed_parameter: '$.path',
      received_value: target.display,
      remediation: `${target.display} is a file, not a directory; pass its directory, or read it with read_file.`,
    });
  }
  return stats;
}
