import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo's root. */
export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The nodwyn command, as npm ci's prepare bundles it. */
export const NODWYN = join(REPO, 'apps', 'cli', 'bin', 'nodwyn.mjs');

/** A fresh temp folder outside the repository. */
export function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Environment for npm: the caller's, without npm's own variables from the process that runs the tests. */
export function npmEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

/** Runs npm and returns its stdout; throws with npm's stderr when it fails. */
export function npm(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const result = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 90_000 });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stderr}`);
  return result.stdout;
}

/** Packs the workspace package in `dir` (relative to the repository) into `into` and returns the tarball's path. */
export function pack(dir: string, into: string, env: NodeJS.ProcessEnv): string {
  const out = JSON.parse(npm(['pack', join(REPO, dir), '--pack-destination', into, '--json'], into, env)) as { filename: string }[];
  return join(into, out[0]!.filename);
}

/** Runs the nodwyn command with `home` as NODWYN_HOME, in `cwd`. */
export function nodwyn(args: readonly string[], home: string, cwd: string, npmSettings: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  // `npmSettings`: npm's configuration for the npm that `nodwyn plugins add` runs (the test registry).
  const npmOnly = Object.fromEntries(Object.entries(npmSettings).filter(([key]) => key.startsWith('npm_config_')));
  const result = spawnSync(process.execPath, [NODWYN, ...args], { cwd, env: { PATH: process.env.PATH, HOME: cwd, NODWYN_HOME: home, ...npmOnly }, encoding: 'utf8', timeout: 90_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The registry npm is configured with on this machine (the uplink of the test registry). */
export function configuredRegistry(): string {
  // Outside the repository: npm config refuses to run inside a workspace.
  return execFileSync('npm', ['config', 'get', 'registry'], { cwd: tmpdir(), env: npmEnv({}), encoding: 'utf8' }).trim();
}
