import { isInside, realpathLoose, touchesNodwynFolder } from '@nodwyn/plugin-api';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { sandboxError } from './errors.js';

/**
 * Proves a path the code gave stays in the workspace and out of `.nodwyn/`, by its spelling and after
 * every symlink is resolved, and answers it relative to the workspace's real path, for the primitive the
 * door calls next. The primitive confines the path again (tools-core also refuses nodwyn's own folders);
 * this check is the runner's own, because a runner must not depend on another plugin's rules.
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
  if (!isInside(root, lexical)) throw outside();
  if (touchesNodwynFolder(root, lexical)) throw refusedReserved();
  const real = await realpathLoose(lexical).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    throw sandboxError('SANDBOX_DOOR_ARGUMENT', { ...failure, remediation: `${door} could not resolve "${input}" (${code}); pass a plain path to a file in the workspace.` }, error);
  });
  if (!isInside(root, real)) throw outside();
  if (touchesNodwynFolder(root, real)) throw refusedReserved();
  return relative(root, real).split(sep).join('/') || '.';
}
