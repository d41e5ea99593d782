import { basename } from 'node:path';
import { plainWords } from './shell-allow-list.js';
import { realFolderOf } from './real-folder.js';

/** Programs whose first plain argument names what they do (`git commit`, `npm install`): it is part of the effect. */
const MULTI_COMMAND = new Set(['git', 'npm', 'npx', 'pnpm', 'yarn', 'cargo', 'go', 'docker', 'kubectl', 'make']);

/**
 * Programs that run another command named in their arguments (`env rm -rf x`, `xargs`, `sudo`): "always
 * allow env" would allow anything, so a call of one is its own effect.
 */
const WRAPPERS = new Set([
  'sudo', 'doas', 'su', 'env', 'xargs', 'nohup', 'timeout', 'nice', 'ionice', 'time', 'exec', 'command', 'builtin',
  'eval', 'source', '.', 'watch', 'setsid', 'stdbuf', 'chroot', 'unshare', 'flock', 'strace',
]);

/**
 * What an "always" answer to a shell call covers: `shell:<program>`, or `shell:<program> <subcommand>` for
 * a multi-command tool (its first argument that does not start with `-`). Named by the program's basename
 * when it is looked up on the PATH; a program given by a path (`./git`) keeps its path, so approving `git`
 * never approves a script the model wrote and called `git`. A command that is not plain words (anything
 * chained, substituted, redirected, quoted or expanded), starts with a variable assignment, or runs
 * through a wrapper is its own effect (`shell:` and the exact command): approving `git commit` must not
 * approve `git commit; curl … | sh`.
 */
export function shellEffect(command: string): string {
  const words = plainWords(command);
  const program = words?.[0];
  if (!words || program === undefined || program.includes('=') || WRAPPERS.has(basename(program))) return `shell:${command}`;
  const name = program.includes('/') ? program : basename(program);
  if (!MULTI_COMMAND.has(basename(program))) return `shell:${name}`;
  const sub = words.slice(1).find((word) => !word.startsWith('-'));
  return sub === undefined ? `shell:${name}` : `shell:${name} ${sub}`;
}

/** What an "always" answer to write_file or edit_file covers: the real folder of the file it changes. */
export function editEffect(workspace: string, path: string): string {
  return `edit:${realFolderOf(workspace, path)}`;
}
