import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox } from './cli.js';

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

const SECURITY = ['@nodwyn/plugin-keychain', '@nodwyn/plugin-redact-l1', '@nodwyn/plugin-redact-l2', '@nodwyn/plugin-egress', '@nodwyn/plugin-judge'];
const SMALL = ['@nodwyn/plugin-tools-core', '@nodwyn/plugin-loop-default', '@nodwyn/plugin-provider-scripted'];

/** Writes a distribution file in its own folder and returns its path. */
function distFile(text: string): string {
  return box.write(join(box.root, 'dist', 'nodwyn.dist.toml'), text);
}

function small(extra = ''): string {
  const plugins = SMALL.map((p) => `[[plugins]]\npackage = "${p}"\nrange = "^0.1.0"\n`).join('\n');
  return distFile(`name = "small"\nversion = "1.0.0"\n${extra}\n${plugins}`);
}

/** A third-party plugin package with a `nodwyn hello` command, in `root`'s node_modules. */
function helloPlugin(root: string, version = '1.0.0'): string {
  const dir = join(root, 'node_modules', 'hello-plugin');
  box.write(join(dir, 'package.json'), JSON.stringify({ name: 'hello-plugin', version, type: 'module', main: 'index.js' }));
  const manifest = { name: 'hello-plugin', version, apiVersion: '^0.1.0', provides: ['command:hello'], requires: [], permissions: [] };
  const command = "{ name: 'hello', description: 'says hello', run: async ({ io }) => { io.write('hello from the plugin\\n'); return 0; } }";
  box.write(join(dir, 'index.js'), `export default { manifest: ${JSON.stringify(manifest)}, register(ctx) { ctx.commands.register(${command}); } };\n`);
  return dir;
}

function report(args: string[], env: NodeJS.ProcessEnv = {}): { name: string; state: string; optional: boolean; envelope?: { code: string; remediation: string } }[] {
  const out = box.run([...args, 'plugins', '--json'], undefined, box.workspace, env);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

describe('nodwyn --distribution FILE', () => {
  it('runs a distribution of three plugins, with the required security plugins added anyway', () => {
    const file = small();
    const plugins = report(['--distribution', file]);
    expect(plugins.map((p) => [p.name, p.state, p.optional]).sort()).toEqual([...SECURITY, ...SMALL].sort().map((name) => [name, 'started', false]));
    const run = box.run(['--distribution', file, 'run', 'hi', '--script', box.script([{ text: 'small and safe' }])]);
    expect([run.code, run.stdout], run.stderr).toEqual([0, 'small and safe\n']);
  });

  it('takes the file from NODWYN_DISTRIBUTION too, and its [config] under the person\'s config.toml', () => {
    const file = small('frontend = "web"\n[config.budgets]\nmax_turns = 1\nmax_tool_calls = 7\n');
    box.write(join(box.home, 'config.toml'), '[budgets]\nmax_tool_calls = 9\n');
    const script = box.script([{ toolCalls: [{ name: 'list_dir', args: { path: '.' } }] }, { text: 'never' }]);
    const run = box.run(['run', 'hi', '--script', script, '--json'], undefined, box.workspace, { NODWYN_DISTRIBUTION: file });
    // max_turns = 1 from the file stops the second model call.
    expect(run.code, run.stderr).toBe(4);
    const plugins = box.run(['plugins'], undefined, box.workspace, { NODWYN_DISTRIBUTION: file });
    expect(plugins.stdout).toMatch(/\nweb\s+-\s+\*\s+the default front end, but no started plugin provides it\n$/);
  });

  it('leaves the security plugins out only for a test distribution, and every command says so loudly', () => {
    const file = small('[distribution]\nunsafe_test_distribution = true\n');
    const out = box.run(['--distribution', file, 'plugins', '--json']);
    expect(out.code, out.stderr).toBe(0);
    expect((JSON.parse(out.stdout) as { name: string }[]).map((p) => p.name)).toEqual(SMALL);
    expect(out.stderr).toContain('UNSAFE TEST DISTRIBUTION');
    const list = box.run(['--distribution', file, 'log', 'list']);
    expect(list.stderr).toContain('UNSAFE TEST DISTRIBUTION');
  });

  it('keeps a security plugin required even when the file calls it optional', () => {
    const file = small('[[plugins]]\npackage = "@nodwyn/plugin-judge"\nrange = "^0.1.0"\noptional = true\n');
    expect(report(['--distribution', file]).find((p) => p.name === '@nodwyn/plugin-judge')?.optional).toBe(false);
  });

  it('refuses a broken file with one envelope naming the file and the key, exit 3, for every command', () => {
    const unknownKey = distFile('name = "x"\nversion = "1"\nplugin = []\n');
    const bad = box.run(['--distribution', unknownKey, 'log', 'list']);
    expect([bad.code, bad.stdout]).toEqual([3, '']);
    expect(bad.stderr).toContain('DISTRIBUTION_FILE_INVALID');
    expect(bad.stderr).toContain(unknownKey);
    const syntax = distFile('name = "x"\nversion = \n');
    const broken = box.run(['--distribution', syntax, 'plugins', '--json']);
    expect(broken.code).toBe(3);
    expect(JSON.parse(broken.stderr)).toMatchObject({ code: 'CONFIG_INVALID_TOML', remediation: expect.stringContaining('line 2') });
    const missing = box.run(['run', 'x'], undefined, box.workspace, { NODWYN_DISTRIBUTION: join(box.root, 'nope.toml') });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('DISTRIBUTION_FILE_UNREADABLE');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  it("runs a third-party plugin from the file's folder only once approved, and again only once a change is approved", () => {
    const file = small('[[plugins]]\npackage = "hello-plugin"\nrange = "^1.0.0"\noptional = true\n');
    const dir = helloPlugin(join(box.root, 'dist'));
    const before = box.run(['--distribution', file, 'plugins', '--json']);
    expect(before.stderr).toMatch(/^nodwyn: plugin hello-plugin did not load: PLUGIN_UNAPPROVED — Third-party plugin hello-plugin 1\.0\.0 \(.*\) is not approved; review it and run `nodwyn plugins approve hello-plugin`\.$/m);
    expect(before.stderr.split('\n').filter((line) => line.includes('hello-plugin'))).toHaveLength(1);
    expect((JSON.parse(before.stdout) as { name: string; state: string }[]).find((p) => p.name === 'hello-plugin')?.state).toBe('unapproved');
    const refused = box.run(['--distribution', file, 'plugins', 'approve', 'hello-plugin']);
    expect([refused.code, refused.stderr]).toEqual([3, expect.stringContaining('PLUGIN_CONFIRMATION_REQUIRED')]);
    const approve = box.run(['--distribution', file, 'plugins', 'approve', 'hello-plugin', '--yes']);
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toMatch(/hello-plugin 1\.0\.0 .*: 2 file\(s\)[\s\S]*Content hash: sha256:[0-9a-f]{64}[\s\S]*index\.js/);
    expect(statSync(join(box.home, 'plugins.lock.json')).mode & 0o777).toBe(0o600);
    const run = box.run(['--distribution', file, 'hello']);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, 'hello from the plugin\n', '']);
    writeFileSync(join(dir, 'index.js'), `${readFileSync(join(dir, 'index.js'), 'utf8')}// changed\n`);
    writeFileSync(join(dir, 'extra.js'), 'export {};\n');
    const changed = box.run(['--distribution', file, 'plugins', '--json']);
    expect(changed.stderr).toContain('nodwyn: plugin hello-plugin did not load: PLUGIN_UNAPPROVED — Third-party plugin hello-plugin 1.0.0');
    expect(changed.stderr).toContain('is changed since you approved it (added extra.js; changed index.js)');
    expect((JSON.parse(changed.stdout) as { name: string; state: string }[]).find((p) => p.name === 'hello-plugin')?.state).toBe('unapproved');
    const again = box.run(['--distribution', file, 'plugins', 'approve', 'hello-plugin', '--yes']);
    expect(again.stdout).toContain('Changed since you approved 1.0.0');
    expect(report(['--distribution', file]).find((p) => p.name === 'hello-plugin')?.state).toBe('started');
  });

  it('asks at a terminal before approving, and a no approves nothing', async () => {
    helloPlugin(box.home);
    box.write(join(box.home, 'config.toml'), '[[distribution.plugins]]\npackage = "hello-plugin"\nrange = "^1.0.0"\n');
    for (const [answer, state] of [['n', 'unapproved'], ['y', 'started']] as const) {
      const terminal = box.inTerminal(['plugins', 'approve', 'hello-plugin']);
      await terminal.waitFor('[y/N]');
      expect(terminal.output()).toMatch(/Content hash: sha256:[0-9a-f]{64}[\s\S]*index\.js[\s\S]*Run hello-plugin with these files\?/);
      terminal.type(`${answer}\r`);
      expect(await terminal.exited).toBe(0);
      expect(report([]).find((p) => p.name === 'hello-plugin')?.state).toBe(state);
    }
  });

  it("lets no model write approve a plugin: the ledger is in nodwyn's data folder, which the guard refuses", () => {
    helloPlugin(box.home);
    box.write(join(box.home, 'config.toml'), '[[distribution.plugins]]\npackage = "hello-plugin"\nrange = "^1.0.0"\n');
    const ledger = join(box.home, 'plugins.lock.json');
    box.approve('hello-plugin');
    const approved = readFileSync(ledger, 'utf8');
    const forged = JSON.stringify({ version: 1, plugins: [] });
    const script = box.script([{ toolCalls: [{ name: 'write_file', args: { path: ledger, content: forged } }] }, { text: '{{lastToolResult}}' }]);
    const run = box.run(['run', 'forget the plugin approvals', '--script', script, '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('PERMISSION_DENIED');
    expect(readFileSync(ledger, 'utf8')).toBe(approved);
  });
});

/** Packs the hello plugin at `version` into one tarball path, as a build would overwrite its artifact. */
function packHello(version: string): string {
  const source = helloPlugin(join(box.root, 'src'), version);
  const packed = execFileSync('npm', ['pack', source, '--pack-destination', box.root], { cwd: box.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n').pop()!;
  const tarball = join(box.root, 'hello-plugin.tgz');
  renameSync(join(box.root, packed), tarball);
  return tarball;
}

describe('nodwyn plugins add, update and remove', () => {
  it('installs a packed plugin with npm into the config folder, names it in config.toml, approves it and removes it', () => {
    const source = helloPlugin(join(box.root, 'src'));
    const tarball = join(box.root, execFileSync('npm', ['pack', source, '--pack-destination', box.root], { cwd: box.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split('\n').pop()!);
    // No registry is reachable: the tarball has no dependencies, so npm must not need one.
    const npmEnv = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: join(box.root, 'npm-cache') };
    const add = box.run(['plugins', 'add', tarball, '--yes'], undefined, box.workspace, npmEnv);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('approved hello-plugin 1.0.0');
    expect(readFileSync(join(box.home, 'config.toml'), 'utf8')).toContain('[[distribution.plugins]]\npackage = "hello-plugin"\nrange = "^1.0.0"\n');
    expect(report([]).find((p) => p.name === 'hello-plugin')?.state).toBe('started');
    const remove = box.run(['plugins', 'remove', 'hello-plugin'], undefined, box.workspace, npmEnv);
    expect(remove.code, remove.stderr).toBe(0);
    expect(readFileSync(join(box.home, 'config.toml'), 'utf8')).not.toContain('hello-plugin');
    expect(report([]).some((p) => p.name === 'hello-plugin')).toBe(false);
    expect(readFileSync(join(box.home, 'plugins.lock.json'), 'utf8')).not.toContain('hello-plugin');
  }, 120_000);

  it('updates a plugin: the new version does not run until approved, update shows what changed, and the ledger pins the new files', () => {
    const npmEnv = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: join(box.root, 'npm-cache') };
    const tarball = packHello('1.0.0');
    const add = box.run(['plugins', 'add', tarball, '--yes'], undefined, box.workspace, npmEnv);
    expect(add.code, add.stderr).toBe(0);
    const ledger = join(box.home, 'plugins.lock.json');
    const pinned = (): { package: string; version: string; hash: string }[] => (JSON.parse(readFileSync(ledger, 'utf8')) as { plugins: { package: string; version: string; hash: string }[] }).plugins;
    const first = pinned().find((p) => p.package === 'hello-plugin')!;
    expect(first.version).toBe('1.0.0');
    expect(box.run(['hello']).stdout).toBe('hello from the plugin\n');

    // A file changed in place, with no update: refused, the change named on stderr, stdout untouched.
    const installedIndex = join(box.home, 'node_modules', 'hello-plugin', 'index.js');
    const original = readFileSync(installedIndex, 'utf8');
    writeFileSync(installedIndex, `${original}// edited by hand\n`);
    const tampered = box.run(['plugins', '--json']);
    expect(tampered.code, tampered.stderr).toBe(0);
    expect(tampered.stderr).toMatch(/^nodwyn: plugin hello-plugin did not load: PLUGIN_UNAPPROVED — .* is changed since you approved it \(changed index\.js\); review it and run `nodwyn plugins approve hello-plugin`\.$/m);
    expect((JSON.parse(tampered.stdout) as { name: string; state: string }[]).find((p) => p.name === 'hello-plugin')?.state).toBe('unapproved');
    writeFileSync(installedIndex, original);

    // Version 1.1.0 packed over the same tarball path; update installs it and asks again.
    packHello('1.1.0');
    const refused = box.run(['plugins', 'update', 'hello-plugin'], undefined, box.workspace, npmEnv);
    expect([refused.code, refused.stderr]).toEqual([3, expect.stringContaining('PLUGIN_CONFIRMATION_REQUIRED')]);
    expect(refused.stdout).toMatch(/Changed since you approved 1\.0\.0 \([^)]*\): version 1\.0\.0 → 1\.1\.0; changed index\.js, package\.json/);
    expect(pinned().find((p) => p.package === 'hello-plugin')?.hash).toBe(first.hash);
    const notYet = box.run(['hello']);
    expect(notYet.stderr).toContain('nodwyn: plugin hello-plugin did not load: PLUGIN_UNAPPROVED — Third-party plugin hello-plugin 1.1.0');
    expect(notYet.stderr).toContain('version 1.0.0 → 1.1.0');

    const update = box.run(['plugins', 'update', '--yes'], undefined, box.workspace, npmEnv);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toMatch(/Changed since you approved 1\.0\.0[^\n]*version 1\.0\.0 → 1\.1\.0[\s\S]*approved hello-plugin 1\.1\.0 \(sha256:[0-9a-f]{64}\)/);
    const now = pinned().find((p) => p.package === 'hello-plugin')!;
    expect([now.version, now.hash === first.hash, update.stdout.includes(now.hash)]).toEqual(['1.1.0', false, true]);
    const run = box.run(['hello']);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, 'hello from the plugin\n', '']);
  }, 180_000);
});
