import { isInside, realpathLoose, touchesNodwynFolder } from '@nodwyn/plugin-api';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { nodeError } from './errors.js';

/** A door path, proven to stay in the workspace and away from `.nodwyn/` and nodwyn's data. */
export interface DoorPath {
  /** Relative to the workspace, `/`-separated: what the door passes to read_file or write_file. */
  readonly relative: string;
  /** Symlinks resolved; for a path that does not exist yet, where it would be created. */
  readonly real: string;
}

/**
 * Checks a path the code gave a file door, by spelling and again after every symlink is resolved:
 * relative only, inside the workspace, never `.nodwyn/` in any case, never under one of `forbidden`
 * (nodwyn's data directory, which holds the kernel database). The file tool the door calls checks the
 * workspace again; this check is the runner's own, so `.nodwyn/` holds whatever tools are installed.
 *
 * @param forbidden real paths no door may reach
 */
export async function checkDoorPath(workspace: string, input: unknown, forbidden: readonly string[]): Promise<DoorPath> {
  const failure = { failed_parameter: '$.path', received_value: input };
  if (typeof input !== 'string' || input.length === 0 || input.includes('\0')) {
    throw nodeError('SANDBOX_DOOR_ARGUMENT', { ...failure, expected: 'a non-empty path relative to the workspace', remediation: 'Pass the file path as a string relative to the workspace root, e.g. "src/data.json".' });
  }
  const root = await realpath(workspace);
  const lexical = resolve(root, input);
  const outside = (why: string) =>
    nodeError('SANDBOX_PATH_OUTSIDE', { ...failure, expected: 'a path inside the workspace', remediation: `${why}; only files inside the workspace are reachable. Pass a path relative to the workspace root.` });
  const forbiddenPath = () =>
    nodeError('SANDBOX_PATH_RESERVED', { ...failure, remediation: '.nodwyn/ and nodwyn\'s data directory are never reachable from sandboxed code, whatever the grants; use another path.' });
  if (isAbsolute(input)) throw outside('The path is absolute');
  if (!isInside(root, lexical)) throw outside('The path leaves the workspace through ..');
  if (touchesNodwynFolder(root, lexical)) throw forbiddenPath();
  const real = await realpathLoose(lexical).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw nodeError('SANDBOX_DOOR_ARGUMENT', { ...failure, remediation: `The path cannot be resolved (${code}); pass a path of a readable file or folder in the workspace.` }, error);
  });
  if (!isInside(root, real)) throw outside('The path goes through a symlink that points outside the workspace');
  if (touchesNodwynFolder(root, real) || forbidden.some((dir) => isInside(dir, real))) throw forbiddenPath();
  return { relative: relative(root, lexical).split(sep).join('/') || '.', real };
}
