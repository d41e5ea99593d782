import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { errnoOf } from './fs-errors.js';

/**
 * The `.gitignore` rules of a tree, read lazily one directory at a time and applied as git applies them:
 * each directory's file speaks for the paths below it, a deeper file overrides a shallower one, and the
 * last matching line of a file wins. `.git` itself is always skipped. Walkers prune ignored directories,
 * so, as in git, nothing below an ignored directory can be re-included.
 */
export class GitignoreRules {
  private readonly loaded = new Map<string, Promise<Ignore | undefined>>();

  /** @param root the real directory whose `.gitignore` files apply (the workspace, usually). */
  constructor(readonly root: string) {}

  /**
   * Rules for a walk starting at `start`. When `start` is itself ignored (the model asked for
   * `node_modules/zod` by name), the rules are rooted at `start`, so only the `.gitignore` files below it
   * apply: asking for an ignored directory by name shows it rather than an empty listing.
   */
  static async forWalk(workspace: string, start: string): Promise<GitignoreRules> {
    const rules = new GitignoreRules(workspace);
    return start !== workspace && (await rules.ignores(start, true)) ? new GitignoreRules(start) : rules;
  }

  /** True when the absolute `path` (a directory when `isDirectory`) is ignored. */
  async ignores(path: string, isDirectory: boolean): Promise<boolean> {
    const rel = relative(this.root, path);
    if (rel === '') return false;
    const parts = rel.split(sep);
    if (parts.includes('.git')) return true;
    let ignored = false;
    for (let depth = 0; depth < parts.length; depth++) {
      const rules = await this.rulesOf(parts.slice(0, depth).join('/'));
      if (!rules) continue;
      const below = parts.slice(depth).join('/') + (isDirectory ? '/' : '');
      const verdict = rules.test(below);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }

  private rulesOf(directory: string): Promise<Ignore | undefined> {
    let rules = this.loaded.get(directory);
    if (!rules) {
      rules = readRules(join(this.root, directory, '.gitignore'));
      this.loaded.set(directory, rules);
    }
    return rules;
  }
}

async function readRules(file: string): Promise<Ignore | undefined> {
  try {
    return ignore().add(await readFile(file, 'utf8'));
  } catch (error) {
    // No .gitignore is the common case. An unreadable one is treated as absent, as git does (it warns
    // and goes on): one bad file must not stop every search of the workspace.
    if (['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'ELOOP'].includes(errnoOf(error) ?? '')) return undefined;
    throw error;
  }
}
