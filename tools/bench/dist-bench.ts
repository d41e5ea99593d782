import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { percentile, type Row } from './stats.js';

const ROUNDS = 15;
const PLUGINS = ['@nodwyn/plugin-provider-scripted', '@nodwyn/plugin-tools-core', '@nodwyn/plugin-loop-default'];

/**
 * Cold starts of a `nodwyn dist build` bundle (three plugins, the five required security plugins added)
 * next to the default CLI: `--version`, and `plugins`, which boots every plugin of the distribution.
 * Each round runs both, so a machine that gets busier slows them alike; the ratio is of the medians.
 */
export function benchDist(root: string, dir: string): Row[] {
  const bin = join(root, 'apps', 'cli', 'bin', 'nodwyn.mjs');
  const base = join(dir, 'dist-bench');
  const home = join(base, 'home');
  const workspace = join(base, 'workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const file = join(base, 'nodwyn.dist.toml');
  writeFileSync(file, `name = "bench"\nversion = "1.0.0"\n${PLUGINS.map((p) => `[[plugins]]\npackage = "${p}"\nrange = "^0.1.0"\n`).join('')}`);
  const options = { cwd: workspace, env: { ...process.env, NODWYN_HOME: home }, encoding: 'utf8' as const };
  const out = join(base, 'out');
  const built = spawnSync(process.execPath, [bin, 'dist', 'build', file, '--out', out], options);
  if (built.status !== 0) throw new Error(`nodwyn dist build exited ${built.status}: ${built.stderr}`);
  const bundle = join(out, 'bench.mjs');
  const time = (script: string, args: readonly string[]) => {
    const start = performance.now();
    const result = spawnSync(process.execPath, [script, ...args], options);
    if (result.status !== 0) throw new Error(`${script} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    return performance.now() - start;
  };
  const count = (script: string) => (JSON.parse(spawnSync(process.execPath, [script, 'plugins', '--json'], options).stdout) as unknown[]).length;
  const plugins = `${count(bundle)} plugins vs the default's ${count(bin)}`;
  return [['--version'], ['plugins']].map((args) => {
    const samples = { cli: [] as number[], bundle: [] as number[] };
    time(bin, args);
    time(bundle, args);
    for (let round = 0; round < ROUNDS; round++) {
      samples.cli.push(time(bin, args));
      samples.bundle.push(time(bundle, args));
    }
    const cli = percentile(samples.cli, 50);
    const dist = percentile(samples.bundle, 50);
    const ratio = dist / cli;
    return {
      name: `dist build bundle vs default CLI, ${args.join(' ')}, cold`,
      value: `${ratio.toFixed(2)}×`,
      target: '≤ 1.0×',
      ok: ratio <= 1.0,
      note: `${dist.toFixed(0)} ms vs ${cli.toFixed(0)} ms; medians of ${ROUNDS} interleaved; ${args[0] === '--version' ? `a ${(statSync(bundle).size / 1e6).toFixed(1)} MB file to compile vs a small module` : plugins}`,
    };
  });
}
