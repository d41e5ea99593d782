import { isInside, realpathLoose, type CheckStage, type Verdict } from '@nodwyn/plugin-api';
import { realpath } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';

/** The file tools that change a file the model names. */
const WRITERS = new Set(['write_file', 'edit_file']);
const ALLOW: Verdict = { kind: 'allow' };

/** True when some folder of `path` below `root` is `.git`, in any case (case-insensitive file systems). */
function inGitFolder(root: string, path: string): boolean {
  return isInside(root, path) && relative(root, path).split(sep).some((segment) => segment.toLowerCase() === '.git');
}

/**
 * A policy stage: write_file and edit_file into `.git/` (its config, hooks, info) need a person's yes.
 * git runs what that folder says (`core.fsmonitor`, `core.hooksPath`, hooks, aliases, pagers), so a write
 * there turns the next allow-listed `git status` into any command the model chose. Judged by spelling and
 * by real path, so a symlink to `.git` asks too; without a person the call is CONFIRMATION_REQUIRED.
 */
export function gitWritesStage(workspace: string): CheckStage {
  return {
    name: 'git-writes',
    slot: 'policy',
    // Synchronous for every other call, so the guard awaits nothing on the common path.
    check(call) {
      const path = (call.args as { path?: unknown } | undefined)?.path;
      return !WRITERS.has(call.name) || typeof path !== 'string' ? ALLOW : judge(workspace, call.name, path);
    },
  };
}

async function judge(workspace: string, name: string, path: string): Promise<Verdict> {
  const root = await realpath(workspace);
  const lexical = resolve(root, path);
  // A path that cannot be resolved is refused by the tool itself, with its own envelope.
  const real = await realpathLoose(lexical).catch(() => lexical);
  if (!inGitFolder(root, lexical) && !inGitFolder(root, real)) return ALLOW;
  return { kind: 'confirm', reason: `${name} would change ${path} inside .git/, which decides what git runs (hooks, core.fsmonitor, aliases)` };
}
