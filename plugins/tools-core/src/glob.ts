import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { definePrimitive, isInside, z } from '@nodwyn/plugin-api';
import { glob, type FileSystemAdapter } from 'tinyglobby';
import type { ToolsConfig } from './config.js';
import { throwIfCancelled, toolsFail } from './errors.js';
import { GitignoreRules } from './gitignore.js';
import { linesWithin, NOTE_RESERVE, plural } from './output.js';
import { displayPath, isProtected, resolveInWorkspace, statExisting, type WorkspacePath } from './workspace-path.js';

const GlobInput = z
  .object({
    pattern: z
      .string()
      .min(1)
      .describe(
        'Glob matched against file paths relative to `path`, e.g. "**/*.ts", "src/**/*.{js,jsx}" or ' +
          '"*.md". `**` spans directories; a pattern without it matches at the top of `path` only.',
      ),
    path: z.string().min(1).optional().describe('Directory to search in, relative to the workspace root. Default: the workspace root.'),
  })
  .strict();

type GlobArgs = z.infer<typeof GlobInput>;

/** glob: files matching a pattern, gitignore-aware, sorted, capped. */
export function createGlobTool(config: Pick<ToolsConfig, 'maxEntries'>) {
  return definePrimitive({
    name: 'glob',
    description:
      'Find files by glob pattern. Prints matching files, one per line, as paths relative to the workspace ' +
      'root, sorted by path. Dotfiles match; gitignored files, .git, nodwyn\'s own folders and anything ' +
      `reached through a symlink do not. At most ${config.maxEntries} paths; a final line in square brackets gives the total when there are more.`,
    input: GlobInput,
    tier: 'read',
    visibility: 'model',
    kind: 'search',
    async handler(args, context) {
      checkPattern(args.pattern);
      const target = await resolveInWorkspace(context, args.path ?? '.', 'glob');
      await statExisting(target, 'glob', 'directory');
      const rules = await GitignoreRules.forWalk(target.root, target.real);
      const found = await glob(args.pattern, {
        cwd: target.real,
        dot: true,
        onlyFiles: true,
        followSymbolicLinks: false,
        signal: context.signal,
        fs: gitignoreFs(rules, target),
      });
      throwIfCancelled(context.signal, 'glob');
      const paths = found
        .map((path) => join(target.real, path))
        .filter((path) => isInside(target.real, path))
        .map((path) => displayPath(target.root, path))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return { content: render(paths, args, config.maxEntries, context.outputCap), data: { paths: paths.slice(0, config.maxEntries), total: paths.length } };
    },
  });
}

/**
 * Refuses patterns that reach out of the search directory: tinyglobby moves its root up for a leading
 * `../`, and an absolute pattern names its own root. `..` is refused wherever it stands as a path segment,
 * including inside braces (`{..,src}/*`).
 */
function checkPattern(pattern: string): void {
  const failure = { operation: 'glob', failed_parameter: '$.pattern', received_value: pattern };
  if (pattern.includes('\0')) {
    toolsFail('PATH_INVALID', { ...failure, remediation: 'The pattern holds a NUL byte; pass a plain glob such as "**/*.ts".' });
  }
  if (pattern.startsWith('/') || pattern.split(/[/{},]/).includes('..')) {
    toolsFail('PATH_OUTSIDE_WORKSPACE', {
      ...failure,
      expected: 'a relative glob without ".." segments',
      remediation: 'glob only searches inside the workspace; pass a relative pattern without "..", and use `path` to choose the directory.',
    });
  }
}

function render(paths: readonly string[], args: GlobArgs, maxEntries: number, outputCap: number): string {
  if (paths.length === 0) return `[no files match ${JSON.stringify(args.pattern)} in ${args.path ?? '.'}; gitignored files are not searched]`;
  const listed = paths.slice(0, maxEntries);
  const shown = linesWithin(listed, outputCap - NOTE_RESERVE);
  const body = listed.slice(0, shown);
  if (shown < paths.length) body.push(`[showed ${shown} of ${plural(paths.length, 'matching file')}; narrow the pattern or the path]`);
  return body.join('\n');
}

/**
 * A file system view for tinyglobby that hides gitignored entries, nodwyn's own folders and anything outside the search directory. Filtering
 * `readdir` itself means ignored directories such as node_modules are never crawled, which a filter
 * applied to the results could not avoid. fdir, under tinyglobby, only ever calls
 * `readdir(path, { withFileTypes: true }, callback)`.
 */
function gitignoreFs(rules: GitignoreRules, target: WorkspacePath): FileSystemAdapter {
  const filtered = (path: string, _options: unknown, callback: (error: Error | null, entries: Dirent[]) => void): void => {
    keptEntries(path, rules, target).then(
      (entries) => callback(null, entries),
      (error: Error) => callback(error, []),
    );
  };
  return { readdir: filtered as unknown as FileSystemAdapter['readdir'] };
}

async function keptEntries(directory: string, rules: GitignoreRules, target: WorkspacePath): Promise<Dirent[]> {
  if (!isInside(target.real, join(directory))) return [];
  const kept: Dirent[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (!isProtected(target, path) && !(await rules.ignores(path, entry.isDirectory()))) kept.push(entry);
  }
  return kept;
}
