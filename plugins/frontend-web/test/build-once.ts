import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Builds the CLI bundle once before the end-to-end tests (tools/build/build-cli.mjs builds the console
 * with vite first and copies it next to the CLI): they run the real `nodwyn serve`, never a stale build.
 */
export default function setup(): void {
  execFileSync(process.execPath, ['tools/build/build-cli.mjs'], { cwd: root, stdio: 'inherit' });
}
