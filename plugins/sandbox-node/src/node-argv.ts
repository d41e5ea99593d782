/** What the child's command line is derived from. */
export interface NodeArgvInput {
  /** The harness module, outside the workspace. */
  readonly harnessPath: string;
  /** The run's code module, outside the workspace. */
  readonly codePath: string;
  /** V8's old-space limit in MiB. */
  readonly memoryMb: number;
  /** The Node version the child runs (`20.20.2`), which decides the permission flag's name. */
  readonly nodeVersion: string;
}

/**
 * The permission model's switch: `--experimental-permission` on Node 20 and 21 (and 22 before 22.13),
 * `--permission` once it was renamed. Passing the wrong one makes Node refuse to start, never run open.
 */
export function permissionFlag(nodeVersion: string): string {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13) ? '--permission' : '--experimental-permission';
}

/**
 * Node splits `--allow-fs-read` values on commas and treats `*` as a wildcard, so such a path would grant
 * more than the one file it names.
 */
function allowedPath(path: string): string {
  if (path.includes(',') || path.includes('*')) throw new RangeError(`the path ${path} holds a comma or an asterisk, which Node's --allow-fs-read would misread`);
  return path;
}

/**
 * The child's arguments. The permission model is on, and the only grants are reading the harness and the
 * code: no workspace access (files go through the door), no `--allow-fs-write`, `--allow-child-process`
 * or `--allow-worker`; addons are off twice (`--no-addons`, and the model disables them). Node cannot
 * restrict the network, which is why the runner refuses runs up front unless it is cut another way.
 */
export function nodeArgv(input: NodeArgvInput): string[] {
  return [
    permissionFlag(input.nodeVersion),
    '--disable-warning=ExperimentalWarning',
    `--allow-fs-read=${allowedPath(input.harnessPath)}`,
    `--allow-fs-read=${allowedPath(input.codePath)}`,
    '--no-addons',
    `--max-old-space-size=${Math.max(1, Math.floor(input.memoryMb))}`,
    input.harnessPath,
    input.codePath,
  ];
}
