import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The `.gitignore` of one directory, and the directory (relative, `/`-separated, '' for the root). */
interface Rules {
  readonly base: string;
  readonly ignore: Ignore;
}

/** A directory waiting to be read, with the rules of it and its ancestors, shallowest first. */
interface Pending {
  readonly rel: string;
  readonly rules: readonly Rules[];
}

/** What a walk of the workspace skips besides ignored paths. */
export interface WalkOptions {
  /** The real workspace root. */
  readonly root: string;
  /** Absolute directories never entered (nodwyn's data folder, when it lies inside the workspace). */
  readonly skip?: readonly string[];
}

/** Folders never indexed, wherever they are: git's own, and nodwyn's (refused to every file tool). */
const NEVER = new Set(['.git', '.nodwyn']);

/**
 * The workspace's regular files, relative paths with `/`, honouring `.gitignore` as git does: each
 * directory's file speaks for the paths below it, a deeper one overrides a shallower one, and nothing
 * below an ignored directory comes back. Symlinks are not followed, so a walk stays in the workspace.
 * Synchronous and lazy: the caller pulls files in slices and yields between them, so a walk of a large
 * tree never holds the event loop for long. An unreadable directory is skipped.
 */
export function* walkFiles(options: WalkOptions): Generator<string> {
  const skip = new Set(options.skip ?? []);
  const stack: Pending[] = [{ rel: '', rules: [] }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const absolute = next.rel === '' ? options.root : join(options.root, next.rel);
    let entries: Dirent[];
    try {
      entries = readdirSync(absolute, { withFileTypes: true });
    } catch {
      continue;
    }
    const rules = entries.some((e) => e.name === '.gitignore' && e.isFile()) ? [...next.rules, ...readRules(absolute, next.rel)] : next.rules;
    for (const entry of entries) {
      const rel = next.rel === '' ? entry.name : `${next.rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (NEVER.has(entry.name) || skip.has(join(options.root, rel)) || ignored(rules, rel, true)) continue;
        stack.push({ rel, rules });
      } else if (entry.isFile() && !ignored(rules, rel, false)) {
        yield rel;
      }
    }
  }
}

function readRules(absolute: string, base: string): Rules[] {
  try {
    return [{ base, ignore: ignore().add(readFileSync(join(absolute, '.gitignore'), 'utf8')) }];
  } catch {
    // An unreadable .gitignore is treated as absent, as git does.
    return [];
  }
}

// The last verdict of the deepest file that speaks wins, as in git.
function ignored(rules: readonly Rules[], rel: string, isDirectory: boolean): boolean {
  let verdict = false;
  for (const set of rules) {
    const below = (set.base === '' ? rel : rel.slice(set.base.length + 1)) + (isDirectory ? '/' : '');
    const result = set.ignore.test(below);
    if (result.ignored) verdict = true;
    else if (result.unignored) verdict = false;
  }
  return verdict;
}
