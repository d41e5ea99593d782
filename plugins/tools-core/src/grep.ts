import { readFile, stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { definePrimitive, z, type PrimitiveCallContext } from '@nodwyn/plugin-api';
import picomatch from 'picomatch';
import { RE2JS } from 're2js';
import type { ToolsConfig } from './config.js';
import { throwIfCancelled, toolsFail } from './errors.js';
import { GitignoreRules } from './gitignore.js';
import { cutLine, linesWithin, NOTE_RESERVE, plural, splitLines } from './output.js';
import { isBinary, MAX_TEXT_FILE_BYTES } from './text-file.js';
import { walk } from './walk.js';
import { isProtected, resolveInWorkspace, statExisting, type WorkspacePath } from './workspace-path.js';

const DEFAULT_MAX_RESULTS = 100;
/** Matched lines are cut shorter than read_file's: a search result only has to be recognised. */
const MAX_MATCH_CHARS = 500;

function grepInput(maxEntries: number) {
  return z
    .object({
      pattern: z
        .string()
        .min(1)
        .describe('Regular expression (RE2 syntax: like JavaScript\'s, without lookaround or backreferences), tested against each line, e.g. "function\\s+load" or "TODO|FIXME". Escape . ( [ and the like to find them literally.'),
      path: z.string().min(1).optional().describe('File or directory to search, relative to the workspace root. Default: the workspace root.'),
      glob: z
        .string()
        .min(1)
        .optional()
        .describe('Only search files matching this glob, relative to `path`: "*.ts" (no "/": matched against file names at any depth) or "src/**/*.tsx".'),
      case_insensitive: z.boolean().optional().describe('Match regardless of case. Default false.'),
      max_results: z.number().int().min(1).max(maxEntries).optional().describe(`Most matching lines to print. Default ${DEFAULT_MAX_RESULTS}, at most ${maxEntries}.`),
    })
    .strict();
}

type GrepArgs = z.infer<ReturnType<typeof grepInput>>;

/** What a search found, and what it had to leave out. */
interface Search {
  readonly matches: string[];
  readonly limit: number;
  readonly skippedLarge: string[];
  readonly unreadable: string[];
  truncated: boolean;
}

/** grep: a regular expression over the workspace's text files. */
export function createGrepTool(config: Pick<ToolsConfig, 'maxEntries'>) {
  return definePrimitive({
    name: 'grep',
    description:
      'Search file contents with a regular expression (RE2 syntax, matched in linear time). Prints one line per match as ' +
      '`path:line:text` (path relative to the workspace root, line 1-based), files in path order. Skips ' +
      'gitignored files, .git, nodwyn\'s own folders, binary files and symlinks. Stops at max_results, saying so in a final line in square brackets.',
    input: grepInput(config.maxEntries),
    tier: 'read',
    visibility: 'model',
    kind: 'search',
    async handler(args, context) {
      const regex = compile(args);
      const target = await resolveInWorkspace(context, args.path ?? '.', 'grep');
      const stats = await statExisting(target, 'grep', 'file or directory');
      const search: Search = { matches: [], limit: args.max_results ?? DEFAULT_MAX_RESULTS, skippedLarge: [], unreadable: [], truncated: false };
      if (stats.isDirectory()) await searchTree(target, args, regex, search, context);
      else await searchFile(target.real, target.display, regex, search);
      return { content: render(search, args, context.outputCap), data: { matches: search.matches, truncated: search.truncated } };
    },
  });
}

// The pattern is the model's: a backtracking engine (RegExp) would let `(a+)+$` hold the process past
// every timeout, since a synchronous match never yields to the abort signal. RE2 matches in linear time.
function compile(args: GrepArgs): RE2JS {
  try {
    return RE2JS.compile(args.pattern, args.case_insensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    return toolsFail('GREP_INVALID_REGEX', {
      operation: 'grep',
      failed_parameter: '$.pattern',
      received_value: args.pattern,
      expected: 'an RE2 regular expression (no lookaround, no backreferences)',
      remediation: `${error instanceof Error ? error.message : 'Invalid regular expression'}. Fix the pattern, escaping ( [ { . * + ? \\ | to match them literally; lookaround and backreferences are not supported.`,
    });
  }
}

async function searchTree(target: WorkspacePath, args: GrepArgs, regex: RE2JS, search: Search, context: PrimitiveCallContext): Promise<void> {
  // Like ripgrep's --glob, a pattern without a slash ("*.ts") applies to file names at any depth.
  // picomatch's `basename` option would apply that to every pattern, so it is set only for those.
  const wanted = args.glob === undefined ? () => true : picomatch(args.glob, { dot: true, basename: !args.glob.includes('/') });
  for await (const entry of walk({
    root: target.root,
    start: target.real,
    maxDepth: Number.POSITIVE_INFINITY,
    rules: await GitignoreRules.forWalk(target.root, target.real),
    skip: (path) => isProtected(target, path),
    signal: context.signal,
    operation: 'grep',
    onUnreadable: (display) => search.unreadable.push(`${display}/`),
  })) {
    if (entry.kind !== 'file' || !wanted(relative(target.real, entry.path).split(sep).join('/'))) continue;
    throwIfCancelled(context.signal, 'grep');
    await searchFile(entry.path, entry.display, regex, search);
    if (search.truncated) return;
  }
}

async function searchFile(path: string, display: string, regex: RE2JS, search: Search): Promise<void> {
  let content: Buffer;
  try {
    if ((await stat(path)).size > MAX_TEXT_FILE_BYTES) {
      search.skippedLarge.push(display);
      return;
    }
    content = await readFile(path);
  } catch {
    // A file that vanished or is unreadable mid-walk is reported, like an unreadable directory.
    search.unreadable.push(display);
    return;
  }
  if (isBinary(content)) return;
  for (const [index, line] of splitLines(content.toString('utf8')).entries()) {
    if (!regex.test(line)) continue;
    if (search.matches.length === search.limit) {
      search.truncated = true;
      return;
    }
    search.matches.push(`${display}:${index + 1}:${cutLine(line, MAX_MATCH_CHARS)}`);
  }
}

function render(search: Search, args: GrepArgs, outputCap: number): string {
  const notes: string[] = [];
  const shown = linesWithin(search.matches, outputCap - NOTE_RESERVE);
  if (search.truncated) {
    notes.push(`[stopped at ${plural(search.limit, 'match', 'matches')}; more exist: narrow the pattern, path or glob, or raise max_results]`);
  }
  if (shown < search.matches.length) notes.push(`[output cap reached: showed ${shown} of ${plural(search.matches.length, 'match', 'matches')}]`);
  if (search.skippedLarge.length > 0) notes.push(`[not searched, over ${MAX_TEXT_FILE_BYTES / 1024 / 1024} MiB: ${listSome(search.skippedLarge)}]`);
  if (search.unreadable.length > 0) notes.push(`[could not read: ${listSome(search.unreadable)}]`);
  if (search.matches.length === 0) {
    notes.unshift(`[no matches for /${args.pattern}/${args.case_insensitive ? 'i' : ''} in ${args.path ?? '.'}; gitignored and binary files are not searched]`);
  }
  return [...search.matches.slice(0, shown), ...notes].join('\n');
}

function listSome(items: readonly string[]): string {
  return items.length <= 10 ? items.join(', ') : `${items.slice(0, 10).join(', ')}, … (${items.length} in all)`;
}
