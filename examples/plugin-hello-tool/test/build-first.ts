import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './npm.js';

/**
 * Builds what the packaging tests pack and run: the libraries' dist/ (tsc -b, incremental, so quick
 * when nothing changed) and the CLI bundle when it is missing (npm ci's prepare makes it).
 */
export default function setup(): void {
  const libs = ['packages/protocol', 'packages/plugin-api', 'packages/client', 'examples/plugin-hello-tool'].map((dir) => join(REPO, dir, 'tsconfig.lib.json'));
  execFileSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', ...libs], { stdio: 'inherit' });
  if (!existsSync(join(REPO, 'apps', 'cli', 'dist', 'nodwyn.mjs'))) {
    execFileSync(process.execPath, [join(REPO, 'tools', 'build', 'build-cli.mjs')], { stdio: 'inherit' });
  }
}
