import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bundles the CLI once before the end-to-end tests, so they never run a stale binary. */
export default function setup(): void {
  execFileSync(process.execPath, [join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tools', 'build', 'build-cli.mjs')], { stdio: 'inherit' });
}
