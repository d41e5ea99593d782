import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Builds the console (vite, into dist/web) and then the CLI bundle, which copies it, once before the
 * end-to-end tests: they run the real `nodwyn serve`, never a stale build.
 */
export default async function setup(): Promise<void> {
  await build({ configFile: fileURLToPath(new URL('../app/vite.config.ts', import.meta.url)), logLevel: 'warn' });
  execFileSync(process.execPath, ['tools/build/build-cli.mjs'], { cwd: root, stdio: 'inherit' });
}
