import { readdir } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { throwIfCancelled } from './errors.js';
import type { GitignoreRules } from './gitignore.js';
import { displayPath } from './workspace-path.js';

/** What an entry is. Symlinks are reported, never followed, so a walk cannot leave the workspace. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** One entry found by a walk. */
export interface WalkEntry {
  readonly path: string;
  /** Relative to the workspace, with `/` separators. */
  readonly display: string;
  readonly kind: EntryKind;
  /** 1 for the entries of the start directory. */
  readonly depth: number;
}

/** How to walk. */
export interface WalkOptions {
  /** The real workspace root, for display paths. */
  readonly root: string;
  /** The real directory to walk. */
  readonly start: string;
  readonly maxDepth: number;
  readonly rules: GitignoreRules;
  /** Entries never listed nor entered, whatever the rules say (nodwyn's own folders). */
  readonly skip: (path: string) => boolean;
  readonly signal: AbortSignal;
  readonly operation: string;
  /** Called with a directory below `start` that could not be read; the walk goes on without it. */
  readonly onUnreadable?: (display: string) => void;
}

/**
 * Walks a directory depth-first, siblings sorted by name (code point order, so the output does not depend
 * on the locale), yielding each directory before what it holds. Ignored entries are skipped and ignored
 * directories are not entered. Checks the signal once per directory.
 */
export async function* walk(options: WalkOptions): AsyncGenerator<WalkEntry> {
  yield* walkDirectory(options.start, 1, options);
}

async function* walkDirectory(directory: string, depth: number, options: WalkOptions): AsyncGenerator<WalkEntry> {
  throwIfCancelled(options.signal, options.operation);
  let entries: Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    // The start directory was checked by the tool; a subdirectory we may not read is reported, not fatal.
    if (directory === options.start) throw error;
    options.onUnreadable?.(displayPath(options.root, directory));
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(directory, entry.name);
    const kind = kindOf(entry);
    if (options.skip(path)) continue;
    if (await options.rules.ignores(path, kind === 'directory')) continue;
    yield { path, display: displayPath(options.root, path), kind, depth };
    if (kind === 'directory' && depth < options.maxDepth) yield* walkDirectory(path, depth + 1, options);
  }
}

function kindOf(entry: Dirent): EntryKind {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  return entry.isFile() ? 'file' : 'other';
}
