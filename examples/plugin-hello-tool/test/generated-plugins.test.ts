import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodwyn, npmEnv, pack, REPO, tempDir } from './npm.js';

// `nodwyn plugin new` for every kind, outside the monorepo: the packages a plugin builds and tests with are
// packed and installed once into `shared/` (third-party ones from npm's cache), each generated plugin's
// node_modules links there, and it is built with tsc, tested with vitest, then added to nodwyn.
const KINDS = ['tool', 'provider', 'stage', 'frontend', 'sandbox', 'loop'] as const;
// What the templates' tests import: @nodwyn/testing and what it depends on, and the sandbox test's plugins.
const PACKED = ['packages/protocol', 'packages/plugin-api', 'packages/kernel', 'packages/plugin-host', 'packages/testing'];
const SANDBOX_TEST_PLUGINS = ['sandbox-quickjs', 'tools-core', 'keychain', 'egress', 'redact-l1', 'redact-l2'].map((p) => `plugins/${p}`);

const root = tempDir('nodwyn-generated-');
const shared = join(root, 'shared');
const home = join(root, 'home');
const env = npmEnv({ npm_config_prefer_offline: 'true' });
// `nodwyn plugins add ./DIR` links the folder: npm must need no registry for it.
const noRegistry = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: join(root, 'npm-cache') };

function run(command: string, args: readonly string[], cwd: string): { code: number | null; out: string } {
  const result = spawnSync(command, args, { cwd, env: { PATH: process.env.PATH, HOME: root }, encoding: 'utf8', timeout: 540_000 });
  return { code: result.status, out: `${result.stdout}\n${result.stderr}` };
}

beforeAll(() => {
  const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-b', ...[...PACKED, ...SANDBOX_TEST_PLUGINS].map((dir) => join(REPO, dir, 'tsconfig.lib.json'))], { stdio: 'inherit' });
  mkdirSync(shared);
  mkdirSync(home);
  const versions = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  writeFileSync(join(shared, 'package.json'), JSON.stringify({ name: 'shared', private: true, type: 'module' }));
  const tarballs = [...PACKED, ...SANDBOX_TEST_PLUGINS].map((dir) => pack(dir, root, env));
  const tools = ['vitest', 'typescript', '@types/node'].map((name) => `${name}@${versions.devDependencies[name]}`);
  // No install scripts: better-sqlite3's would compile for a minute; the repository's build of the same version is copied in.
  const install = spawnSync('npm', ['install', '--ignore-scripts', ...tarballs, ...tools], { cwd: shared, env, encoding: 'utf8', timeout: 540_000 });
  if (install.status !== 0) throw new Error(`npm install failed (${install.status ?? install.signal}):\n${install.stdout}\n${install.stderr}`);
  cpSync(join(REPO, 'node_modules', 'better-sqlite3', 'build'), join(shared, 'node_modules', 'better-sqlite3', 'build'), { recursive: true });
}, 600_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(KINDS)('a %s plugin made with nodwyn plugin new', (kind) => {
  it('builds with tsc, passes its conformance suite and loads into nodwyn once added', () => {
    const name = `@acme/nodwyn-plugin-made-${kind}`;
    const folder = `nodwyn-plugin-made-${kind}`;
    const dir = join(root, folder);
    const created = nodwyn(['plugin', 'new', name, '--kind', kind], home, root);
    expect(created.code, created.stderr).toBe(0);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain(`nodwyn plugins add ./${folder} --yes`);
    symlinkSync(join(shared, 'node_modules'), join(dir, 'node_modules'));

    const build = run(process.execPath, [join(shared, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], dir);
    expect(build, build.out).toMatchObject({ code: 0 });
    const test = run(process.execPath, [join(shared, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=verbose'], dir);
    expect(test, test.out).toMatchObject({ code: 0 });
    expect(test.out).toMatch(/conforms|contains model-written code/);

    const add = nodwyn(['plugins', 'add', `./${folder}`, '--yes'], home, root, noRegistry);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain(`approved ${name} 0.1.0`);
    const listed = nodwyn(['plugins', '--json'], home, root);
    expect(listed.code, listed.stderr).toBe(0);
    const plugins = JSON.parse(listed.stdout) as { name: string; state: string }[];
    expect(plugins.find((p) => p.name === name)).toMatchObject({ state: 'started' });
  }, 600_000);
});
