import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from './stats.js';

function step(what: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const result = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${what} exited ${result.status}: ${result.stdout}\n${result.stderr}`);
}

/**
 * From nothing to a plugin that builds and passes its conformance suite, wall clock: `nodwyn plugin new
 * --kind tool` (the bundled CLI), tsc, vitest. Dependencies are installed already (its node_modules links
 * to the workspace's, whose libraries are built first, untimed), as after an author's `npm install`.
 */
export function benchGenerator(root: string, dir: string): Row[] {
  const modules = join(root, 'node_modules');
  const env = { ...process.env, NODWYN_HOME: join(dir, 'home') };
  const work = join(dir, 'generator');
  mkdirSync(work, { recursive: true });
  step('tsc -b @nodwyn/testing', [join(modules, 'typescript', 'bin', 'tsc'), '-b', join(root, 'packages', 'testing', 'tsconfig.lib.json')], root, env);
  const start = performance.now();
  step('nodwyn plugin new', [join(root, 'apps', 'cli', 'bin', 'nodwyn.mjs'), 'plugin', 'new', '@acme/nodwyn-plugin-bench-tool', '--kind', 'tool'], work, env);
  const plugin = join(work, 'nodwyn-plugin-bench-tool');
  symlinkSync(modules, join(plugin, 'node_modules'));
  step('tsc', [join(modules, 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], plugin, env);
  step('vitest run', [join(modules, 'vitest', 'vitest.mjs'), 'run'], plugin, env);
  const seconds = (performance.now() - start) / 1000;
  return [
    {
      name: 'generator → tool plugin builds and passes its conformance suite',
      value: `${seconds.toFixed(1)} s`,
      target: '≤ 60 s',
      ok: seconds <= 60,
      note: 'nodwyn plugin new + tsc + vitest run, one run, dependencies installed',
    },
  ];
}
