import { NODWYN_FOLDER, protectedFolderOf, realProtectedFolders, type ProtectedFolder } from '@nodwyn/plugin-api';
import { opendir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { serverErrors } from './errors.js';
import { GitignoreRules } from './gitignore-rules.js';

/** Folders never listed wherever they are: git's own and installed packages. */
const NEVER_LISTED: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Entries read at most by one pass of a completion, however large the workspace. */
export const WALK_LIMIT = 20_000;

const OPERATION = '_nodwyn/files/complete';

/** What to complete. */
export interface FileCompletion {
  /** A real folder (see `workspaceOf`). */
  readonly workspace: string;
  readonly prefix: string;
  readonly limit: number;
  /** nodwyn's data and config folders; the workspace's own `.nodwyn/` is added. */
  readonly protectedFolders: readonly ProtectedFolder[];
  /** Entries one pass reads at most; `WALK_LIMIT` by default. */
  readonly walkLimit?: number;
}

interface Entry {
  readonly name: string;
  readonly folder: boolean;
}

/**
 * The workspace's files and folders whose relative path starts with `prefix` (matched with case, then,
 * when nothing matched, without), folders ending in `/`, shortest first, at most `limit`: what `@path`
 * completion offers. Gitignored paths, `.git/`, `node_modules/`, any `.nodwyn/` and nodwyn's own folders
 * are never listed, symlinks are listed but not followed, and a pass reads at most `WALK_LIMIT` entries,
 * breadth first, so a huge tree costs what a small one does and the shortest paths are seen first.
 */
export async function completeFiles(request: FileCompletion): Promise<string[]> {
  const prefix = checkedPrefix(request.prefix);
  const folders = await realProtectedFolders(request.workspace, request.protectedFolders);
  const own = protectedFolderOf(request.workspace, folders);
  if (own) {
    throw serverErrors.error('WORKSPACE_PROTECTED', {
      operation: OPERATION,
      failed_parameter: '$.workspace',
      received_value: request.workspace,
      remediation: `${request.workspace} lies in ${own.name}, whose files no front end lists; complete paths in a project folder.`,
    });
  }
  const rules = new GitignoreRules(request.workspace);
  const pass = (withCase: boolean) => walk({ root: request.workspace, folders, rules, limit: request.walkLimit ?? WALK_LIMIT }, prefix, withCase);
  let found = await pass(true);
  if (found.length === 0) found = await pass(false);
  return found.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)).slice(0, request.limit);
}

/** What one walk reads from. */
interface Tree {
  readonly root: string;
  readonly folders: readonly ProtectedFolder[];
  readonly rules: GitignoreRules;
  readonly limit: number;
}

async function walk(tree: Tree, prefix: string, withCase: boolean): Promise<string[]> {
  const norm = withCase ? (text: string) => text : (text: string) => text.toLowerCase();
  const wanted = norm(prefix);
  const budget = { left: tree.limit };
  const found: string[] = [];
  const queue = [''];
  for (let next = queue.shift(); next !== undefined && budget.left > 0; next = queue.shift()) {
    for (const entry of await entries(tree, next, budget)) {
      const shown = `${next}${entry.name}${entry.folder ? '/' : ''}`;
      const key = norm(shown);
      // The folder the prefix names is where completion looks, not one of its answers.
      if (key.startsWith(wanted) && !(entry.folder && key === wanted)) found.push(shown);
      if (entry.folder && (key.startsWith(wanted) || wanted.startsWith(key))) queue.push(shown);
    }
  }
  return found;
}

/** The entries of one folder that may be listed, taking one unit of `budget` per entry read. */
async function entries({ root, folders, rules }: Tree, folder: string, budget: { left: number }): Promise<Entry[]> {
  const kept: Entry[] = [];
  let dir;
  try {
    dir = await opendir(join(root, folder));
  } catch (error) {
    // A folder removed meanwhile, or one the person cannot read, has nothing to offer.
    if (['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP'].includes((error as NodeJS.ErrnoException).code ?? '')) return kept;
    throw error;
  }
  for await (const dirent of dir) {
    if (budget.left-- <= 0) break;
    const name = dirent.name;
    if (NEVER_LISTED.has(name) || name.toLowerCase() === NODWYN_FOLDER) continue;
    const path = join(root, folder, name);
    if (protectedFolderOf(path, folders) || (dirent.isSymbolicLink() && (await intoProtected(path, folders)))) continue;
    const isFolder = dirent.isDirectory();
    if (!(await rules.ignores(`${folder}${name}`, isFolder))) kept.push({ name, folder: isFolder });
  }
  return kept;
}

/** Whether a symlink leads into one of nodwyn's folders; a dangling one leads nowhere. */
async function intoProtected(path: string, folders: readonly ProtectedFolder[]): Promise<boolean> {
  const target = await realpath(path).then(
    (real) => real,
    () => undefined,
  );
  return target !== undefined && protectedFolderOf(target, folders) !== undefined;
}

/** The prefix as a relative path inside the workspace (a leading `./` dropped), or `PREFIX_INVALID`. */
function checkedPrefix(prefix: string): string {
  const relative = prefix.replace(/^(?:\.\/)+/, '');
  if (!relative.includes('\0') && !relative.startsWith('/') && !relative.split('/').includes('..')) return relative;
  throw serverErrors.error('PREFIX_INVALID', {
    operation: OPERATION,
    failed_parameter: '$.prefix',
    received_value: prefix,
    expected: 'a path relative to the workspace, without ".." segments or NUL bytes',
    remediation: 'Complete paths inside the workspace: give a relative prefix such as "src/comp", without "/" in front or ".." in it.',
  });
}
