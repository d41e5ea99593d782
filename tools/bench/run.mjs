#!/usr/bin/env node
// `npm run bench`: runs the benchmarks from source (tsx with the @nodwyn/source condition) against the
// bundled CLI, and prints one table. Build first (`npm ci` or `npm run prepare`) so the CLI bundle exists.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
if (!existsSync(join(root, 'apps', 'cli', 'dist', 'nodwyn.mjs'))) {
  console.error('bench: apps/cli/dist is missing; run `npm run prepare` first');
  process.exit(2);
}
const result = spawnSync(process.execPath, ['--conditions=@nodwyn/source', '--import', 'tsx', join(root, 'tools', 'bench', 'bench.ts'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
  // React's production build, as the bundled CLI runs it (the TUI rows render with ink in this process).
  env: { ...process.env, NODE_ENV: 'production' },
});
process.exit(result.status ?? 1);
