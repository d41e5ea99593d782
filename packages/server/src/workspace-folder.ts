import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { serverErrors } from './errors.js';

/**
 * The real path of a folder a session may work in (an absolute path to a folder that exists), or
 * `WORKSPACE_INVALID` naming the parameter. The real path is what sessions record, so a workspace reached
 * through a symlink is the same workspace.
 */
export function workspaceOf(cwd: string, operation = 'session/new', parameter = '$.cwd'): string {
  try {
    if (isAbsolute(cwd)) {
      const real = realpathSync(cwd);
      if (statSync(real).isDirectory()) return real;
    }
  } catch {
    // A path that does not exist is reported below, as one that is a file.
  }
  throw serverErrors.error('WORKSPACE_INVALID', {
    operation,
    failed_parameter: parameter,
    received_value: cwd,
    expected: 'an absolute path to a folder that exists',
    remediation: `${cwd} is not a folder nodwyn can work in; give the absolute path of the project folder.`,
  });
}
