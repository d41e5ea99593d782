import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configuredRegistry, nodwyn, npm, npmEnv, REPO, tempDir } from './npm.js';
import { startRegistry, type LocalRegistry } from './verdaccio.js';

// The whole path of a third-party plugin: published to a registry (a local Verdaccio), installed into a
// fresh NODWYN_HOME with `nodwyn plugins add` (docs/plugin-authoring.md §12), named in config.toml, and its
// tool called in a scripted session of the real nodwyn binary.
const root = tempDir('nodwyn-registry-');
let registry: LocalRegistry;
let env: NodeJS.ProcessEnv;

const CONFIG = '[[distribution.plugins]]\npackage = "@acme/nodwyn-plugin-hello"\nrange = "^1.0.0"\noptional = false\n';

beforeAll(async () => {
  const uplink = configuredRegistry();
  registry = await startRegistry(root, uplink);
  const host = new URL(registry.url).host;
  const npmrc = join(root, 'npmrc');
  writeFileSync(npmrc, `registry=${registry.url}\n//${host}/:_authToken=${registry.token}\n`);
  // A cache of its own, so every package really comes through the test registry.
  env = npmEnv({ npm_config_userconfig: npmrc, npm_config_cache: join(root, 'npm-cache'), npm_config_registry: registry.url });
  for (const dir of ['packages/protocol', 'packages/plugin-api', 'examples/plugin-hello-tool']) {
    npm(['publish', join(REPO, dir)], root, env);
  }
});
afterAll(async () => {
  await registry?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Runs a scripted session whose model calls `hello` and answers with the tool's result. */
function greet(home: string): { code: number | null; stdout: string; stderr: string } {
  const workspace = join(home, '..', 'workspace');
  mkdirSync(workspace, { recursive: true });
  const script = join(home, '..', 'script.json');
  writeFileSync(script, JSON.stringify({ replies: [{ toolCalls: [{ name: 'hello', args: { name: 'Ada' } }] }, { text: 'tool said: {{lastToolResult}}' }] }));
  return nodwyn(['run', 'greet Ada', '--script', script], home, workspace);
}

describe('a plugin published to a registry', () => {
  it('installs with nodwyn plugins add (npm install into NODWYN_HOME, peer plugin-api included, approved), and its tool runs', () => {
    const home = join(root, 'installed', 'home');
    mkdirSync(home, { recursive: true });
    const add = nodwyn(['plugins', 'add', '@acme/nodwyn-plugin-hello', '--yes'], home, root, env);
    expect(add.code, add.stderr).toBe(0);
    const plugins = nodwyn(['plugins', '--json'], home, root);
    const hello = (JSON.parse(plugins.stdout) as { name: string; state: string }[]).find((p) => p.name === '@acme/nodwyn-plugin-hello');
    expect(hello?.state, plugins.stderr).toBe('started');
    const run = greet(home);
    expect([run.code, run.stdout], run.stderr).toEqual([0, expect.stringContaining('Hello, Ada!')]);
  });

  it('also loads from an author folder linked into NODWYN_HOME', () => {
    const folder = join(root, 'author', 'plugin-hello');
    mkdirSync(folder, { recursive: true });
    const source = join(REPO, 'examples', 'plugin-hello-tool');
    cpSync(join(source, 'dist', 'src'), join(folder, 'dist', 'src'), { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: '@acme/nodwyn-plugin-hello', version: '1.0.0', type: 'module', exports: './dist/src/index.js', peerDependencies: { '@nodwyn/plugin-api': '^0.1.0' } }));
    // The author's own install brings the peer into the folder, where the plugin's imports resolve from.
    npm(['install'], folder, env);
    const home = join(root, 'linked', 'home');
    mkdirSync(home, { recursive: true });
    npm(['install', '--prefix', home, folder], root, env);
    writeFileSync(join(home, 'config.toml'), CONFIG);
    // Installed by hand, so the person approves it (the trust ledger pins its files).
    const approve = nodwyn(['plugins', 'approve', '@acme/nodwyn-plugin-hello', '--yes'], home, root);
    expect(approve.code, approve.stderr).toBe(0);
    const run = greet(home);
    expect([run.code, run.stdout], run.stderr).toEqual([0, expect.stringContaining('Hello, Ada!')]);
  });
});
