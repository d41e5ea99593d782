import { definePrimitive, z } from '@nodwyn/plugin-api';
import type { ToolsConfig } from './config.js';
import { GitignoreRules } from './gitignore.js';
import { linesWithin, NOTE_RESERVE } from './output.js';
import { walk, type WalkEntry } from './walk.js';
import { isProtected, resolveInWorkspace, statExisting } from './workspace-path.js';

/** Deepest listing: beyond this a model is better served by glob. */
const MAX_LIST_DEPTH = 10;
const DEFAULT_LIST_DEPTH = 2;

const ListDirInput = z
  .object({
    path: z.string().min(1).optional().describe('Directory to list, relative to the workspace root. Default: the workspace root.'),
    depth: z
      .number()
      .int()
      .min(1)
      .max(MAX_LIST_DEPTH)
      .optional()
      .describe(`Levels to descend: 1 lists only the directory's own entries. Default ${DEFAULT_LIST_DEPTH}.`),
  })
  .strict();

/** `src/`, `src/index.ts`, `link@`: directories end in `/`, symlinks in `@`, as `ls -F` marks them. */
function formatEntry(entry: WalkEntry): string {
  if (entry.kind === 'directory') return `${entry.display}/`;
  return entry.kind === 'symlink' ? `${entry.display}@` : entry.display;
}

/** list_dir: a directory tree, gitignore-aware, capped. */
export function createListDirTool(config: Pick<ToolsConfig, 'maxEntries'>) {
  return definePrimitive({
    name: 'list_dir',
    description:
      'List a directory of the workspace, descending `depth` levels. One entry per line, as a path ' +
      'relative to the workspace root; directories end in "/", symlinks in "@" (symlinks are not followed). ' +
      'Each directory comes before what it holds; siblings are sorted by name. Gitignored entries, .git and ' +
      `nodwyn's own folders (.nodwyn/, its data and config folders) are left out. At most ${config.maxEntries} entries; a final line in square brackets says when more were left out.`,
    input: ListDirInput,
    tier: 'read',
    visibility: 'model',
    kind: 'search',
    async handler(args, context) {
      const target = await resolveInWorkspace(context, args.path ?? '.', 'list_dir');
      await statExisting(target, 'list_dir', 'directory');
      const unreadable: string[] = [];
      const lines: string[] = [];
      let more = false;
      for await (const entry of walk({
        root: target.root,
        start: target.real,
        maxDepth: args.depth ?? DEFAULT_LIST_DEPTH,
        rules: await GitignoreRules.forWalk(target.root, target.real),
        skip: (path) => isProtected(target, path),
        signal: context.signal,
        operation: 'list_dir',
        onUnreadable: (display) => unreadable.push(`${display}/`),
      })) {
        if (lines.length === config.maxEntries) {
          more = true;
          break;
        }
        lines.push(formatEntry(entry));
      }
      return { content: render(lines, more, unreadable, target.display, context.outputCap), data: { path: target.display, entries: lines } };
    },
  });
}

function render(lines: string[], more: boolean, unreadable: readonly string[], display: string, outputCap: number): string {
  if (lines.length === 0 && unreadable.length === 0) return `[no entries in ${display}; gitignored entries are not listed]`;
  const shown = linesWithin(lines, outputCap - NOTE_RESERVE);
  const body = lines.slice(0, shown);
  if (more || shown < lines.length) {
    body.push(`[listing stopped after ${shown} entries; list a subdirectory or pass a smaller depth to see the rest]`);
  }
  if (unreadable.length > 0) body.push(`[could not read: ${unreadable.slice(0, 10).join(', ')}${unreadable.length > 10 ? ', …' : ''}]`);
  return body.join('\n');
}
