import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * The `.gitignore` rules of a workspace, read lazily one folder at a time and applied as git applies
 * them: each folder's file speaks for the paths below it, a deeper file overrides a shallower one, the
 * last matching line of a file wins. Paths are relative, with `/` separators. The walker prunes ignored
 * folders, so, as in git, nothing below an ignored folder comes back.
 */
export class GitignoreRules {
  readonly #loaded = new Map<string, Promise<Ignore | undefined>>();

  constructor(private readonly root: string) {}

  /** Whether the relative `path` (a folder when `isFolder`) is ignored. */
  async ignores(path: string, isFolder: boolean): Promise<boolean> {
    const parts = path.split('/');
    let ignored = false;
    for (let depth = 0; depth < parts.length; depth++) {
      const rules = await this.#rulesOf(parts.slice(0, depth).join('/'));
      if (!rules) continue;
      const verdict = rules.test(parts.slice(depth).join('/') + (isFolder ? '/' : ''));
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }

  #rulesOf(folder: string): Promise<Ignore | undefined> {
    let rules = this.#loaded.get(folder);
    if (!rules) {
      rules = readRules(join(this.root, folder, '.gitignore'));
      this.#loaded.set(folder, rules);
    }
    return rules;
  }
}

async function readRules(file: string): Promise<Ignore | undefined> {
  try {
    return ignore().add(await readFile(file, 'utf8'));
  } catch (error) {
    // No .gitignore is the common case; an unreadable one counts as absent, as git does (it warns and
    // goes on), so one bad file does not stop completion in the whole workspace.
    if (['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'ELOOP'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
}
