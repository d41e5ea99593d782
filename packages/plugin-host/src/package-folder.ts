import { lstatSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder of package `name` as Node would find it from directory `from`: `node_modules/<name>` in
 * `from` or the nearest folder above it that has one, its real path. Undefined when none has it.
 */
export function findPackageFolder(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', ...name.split('/'));
    if (lstatSync(join(candidate, 'package.json'), { throwIfNoEntry: false })?.isFile()) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}
