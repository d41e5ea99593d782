import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../src/version.js';
import { CliSandbox } from './cli.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const HELLO = '@acme/nodwyn-plugin-hello';
const SECURITY = ['@nodwyn/plugin-keychain', '@nodwyn/plugin-redact-l1', '@nodwyn/plugin-redact-l2', '@nodwyn/plugin-egress', '@nodwyn/plugin-judge'];
const SMALL = ['@nodwyn/plugin-provider-scripted', '@nodwyn/plugin-tools-core', '@nodwyn/plugin-loop-default'];

let box: CliSandbox;
beforeAll(() => {
  // The example plugin as its package would install: package.json and its built dist/src, nothing else.
  execFileSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', join(REPO, 'examples', 'plugin-hello-tool', 'tsconfig.lib.json')], { stdio: 'inherit' });
  box = new CliSandbox();
  const installed = join(box.root, 'dist', 'node_modules', '@acme', 'nodwyn-plugin-hello');
  mkdirSync(installed, { recursive: true });
  cpSync(join(REPO, 'examples', 'plugin-hello-tool', 'package.json'), join(installed, 'package.json'));
  cpSync(join(REPO, 'examples', 'plugin-hello-tool', 'dist', 'src'), join(installed, 'dist', 'src'), { recursive: true });
}, 180_000);
afterAll(() => box.remove());

/** A distribution file in the folder the hello plugin is installed in. */
function distFile(text: string, plugins = [...SMALL.map((name) => [name, '^0.1.0']), [HELLO, '^1.0.0']]): string {
  const listed = plugins.map(([name, range]) => `[[plugins]]\npackage = "${name}"\nrange = "${range}"\n`).join('\n');
  return box.write(join(box.root, 'dist', 'nodwyn.dist.toml'), `name = "hello-dist"\nversion = "1.2.0"\n${text}\n${listed}`);
}

/** Copies a built distribution into a new empty folder outside the repository, away from any node_modules. */
function shipped(out: string): { dir: string; run: (args: string[]) => { code: number | null; stdout: string; stderr: string } } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-shipped-')));
  cpSync(out, dir, { recursive: true });
  const home = join(dir, '.home');
  mkdirSync(home);
  const run = (args: string[]) => {
    const result = spawnSync(process.execPath, [join(dir, 'hello-dist.mjs'), ...args], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, NODWYN_HOME: home }, encoding: 'utf8', timeout: 60_000 });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  return { dir, run };
}

describe('nodwyn dist build', () => {
  it('bundles a distribution that runs in an empty folder: the third-party plugin answers a scripted session', () => {
    const out = join(box.root, 'out');
    const build = box.run(['dist', 'build', distFile(''), '--out', out]);
    expect(build.code, build.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { plugins: { package: string; version: string; source: string; hash: string }[]; nodeModules: { package: string }[] };
    const hello = manifest.plugins.find((p) => p.package === HELLO)!;
    expect(hello).toMatchObject({ version: '1.0.0', source: 'third-party', hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(build.stdout).toContain(`${HELLO} 1.0.0 ${hello.hash}`);
    expect(manifest.plugins.map((p) => p.package).sort()).toEqual([...SECURITY, ...SMALL, HELLO].sort());
    expect(manifest.nodeModules.map((m) => m.package)).toContain('better-sqlite3');
    expect(readdirSync(out).sort()).toEqual(['hello-dist.mjs', 'manifest.json', 'node_modules']);

    const { dir, run } = shipped(out);
    try {
      expect(existsSync(join(dir, 'nodwyn.dist.toml'))).toBe(false);
      expect(run(['--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
      const plugins = run(['plugins', '--json']);
      expect(plugins.code, plugins.stderr).toBe(0);
      const states = (JSON.parse(plugins.stdout) as { name: string; state: string }[]).map((p) => [p.name, p.state]);
      expect(states.sort()).toEqual([...SECURITY, ...SMALL, HELLO].sort().map((name) => [name, 'started']));
      const script = box.script([{ toolCalls: [{ name: 'hello', args: { name: 'Ada' } }] }, { text: 'the tool said: {{lastToolResult}}' }]);
      const session = run(['run', 'greet Ada', '--script', script]);
      expect([session.code, session.stdout], session.stderr).toEqual([0, 'the tool said: Hello, Ada!\n']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it('leaves the security plugins out of a test distribution only, and its bundle says so loudly', () => {
    const out = join(box.root, 'out-test');
    const build = box.run(['dist', 'build', distFile('[distribution]\nunsafe_test_distribution = true\n', SMALL.map((name) => [name, '^0.1.0'])), '--out', out]);
    expect(build.code, build.stderr).toBe(0);
    const { dir, run } = shipped(out);
    try {
      const plugins = run(['plugins', '--json']);
      expect(plugins.code, plugins.stderr).toBe(0);
      expect((JSON.parse(plugins.stdout) as { name: string }[]).map((p) => p.name)).toEqual(SMALL);
      expect(plugins.stderr).toContain('UNSAFE TEST DISTRIBUTION');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it('refuses a missing file, a plugin it cannot find, a range the plugin is outside of and a folder in use, with one envelope each', () => {
    const out = join(box.root, 'out-refused');
    const refused = (args: string[], code: string) => {
      const result = box.run(['dist', 'build', ...args, '--json']);
      expect([result.code, result.stdout]).toEqual([3, '']);
      expect(JSON.parse(result.stderr)).toMatchObject({ code });
      return JSON.parse(result.stderr) as { remediation: string };
    };
    refused([join(box.root, 'nope.toml'), '--out', out], 'DISTRIBUTION_FILE_UNREADABLE');
    expect(refused([distFile('', [['@acme/not-installed', '^1.0.0']]), '--out', out], 'DIST_PLUGIN_NOT_FOUND').remediation).toContain('@acme/not-installed');
    expect(refused([distFile('', [[HELLO, '^2.0.0']]), '--out', out], 'DIST_RANGE_NOT_SATISFIED').remediation).toContain('^2.0.0');
    box.write(join(out, 'notes.txt'), 'mine\n');
    expect(refused([distFile(''), '--out', out], 'DIST_OUT_NOT_EMPTY').remediation).toContain('--force');
    const forced = box.run(['dist', 'build', distFile(''), '--out', out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['hello-dist.mjs', 'manifest.json', 'node_modules', 'notes.txt']);
  }, 240_000);
});
