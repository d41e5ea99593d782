import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { percentile, type Row } from './stats.js';

function timeCommand(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }, runs: number): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(process.execPath, args, { ...options, encoding: 'utf8' });
    const ms = performance.now() - start;
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    samples.push(ms);
  }
  return samples;
}

/** Cold starts of the bundled CLI, each a fresh process, next to bare `node -e 0` as the floor. */
export function benchCli(root: string, dir: string): Row[] {
  const bin = join(root, 'apps', 'cli', 'bin', 'nodwyn.mjs');
  const home = join(dir, 'home');
  const workspace = join(dir, 'workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'hello.txt'), 'hello from the workspace\n');
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ replies: [{ toolCalls: [{ name: 'read_file', args: { path: 'hello.txt' } }] }, { text: 'done: {{lastToolResult}}' }] }));
  const options = { cwd: workspace, env: { ...process.env, NODWYN_HOME: home } };
  const node = percentile(timeCommand(['-e', '0'], options, 15), 50);
  const version = percentile(timeCommand([bin, '--version'], options, 15), 50);
  timeCommand([bin, 'run', 'warm the page cache', '--script', script], options, 2);
  const run = percentile(timeCommand([bin, 'run', 'read hello.txt', '--script', script], options, 10), 50);
  return [
    { name: 'node -e 0 (floor)', value: `${node.toFixed(0)} ms`, target: '', ok: undefined, note: 'median of 15' },
    { name: 'nodwyn --version, cold', value: `${version.toFixed(0)} ms`, target: '≤ 150 ms', ok: version <= 150, note: 'median of 15' },
    { name: 'nodwyn run, scripted, 1 tool call', value: `${run.toFixed(0)} ms`, target: '≤ 300 ms', ok: run <= 300, note: 'median of 10, new process each' },
  ];
}
