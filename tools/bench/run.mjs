#!/usr/bin/env node
// `npm run bench`: runs the benchmarks from source (tsx with the @nodwyn/source condition) against the
// bundled CLI, and prints one table. The bundle is rebuilt first (about 2 s), so no figure comes from a
// stale build of the code it claims to measure.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const built = spawnSync(process.execPath, [join(root, 'tools', 'build', 'build-cli.mjs')], { stdio: ['ignore', 'ignore', 'inherit'], cwd: root });
if (built.status !== 0) {
  console.error('bench: building the CLI bundle failed (above)');
  process.exit(2);
}
const result = spawnSync(process.execPath, ['--conditions=@nodwyn/source', '--import', 'tsx', join(root, 'tools', 'bench', 'bench.ts'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
  // React's production build, as the bundled CLI runs it (the TUI rows render with ink in this process).
  env: { ...process.env, NODE_ENV: 'production' },
});
process.exit(result.status ?? 1);
