import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolsCorePlugin } from '../src/index.js';

const BINDINGS = '[classes.github]\nhosts = ["api.github.com"]\n';
let running: TestKernel | undefined;
let temp: string | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
  if (temp) rmSync(temp, { recursive: true, force: true });
  temp = undefined;
});

/** The README's old layout: nodwyn's data folder (its bindings, keys, plugins) inside the workspace. */
async function homeInWorkspace(): Promise<{ kernel: TestKernel; workspace: string; home: string }> {
  temp = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-protected-')));
  const workspace = join(temp, 'ws');
  const home = join(workspace, 'home');
  mkdirSync(join(workspace, '.nodwyn'), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'bindings.toml'), BINDINGS);
  writeFileSync(join(home, 'log.key'), 'key material');
  writeFileSync(join(workspace, '.nodwyn', 'config.toml'), '[tools]\n');
  writeFileSync(join(workspace, 'notes.txt'), 'project file\n');
  running = await startTestKernel({ plugins: [toolsCorePlugin], workspace, dataDir: home });
  return { kernel: running, workspace, home };
}

async function refused(kernel: TestKernel, name: string, args: unknown): Promise<string> {
  const result = await kernel.apply(name, args);
  if (result.ok) throw new Error(`${name} ${JSON.stringify(args)} was allowed: ${result.content}`);
  expect(result.envelope.category).toBe('PERMISSION_DENIED');
  expect(result.envelope.code).toBe('PATH_PROTECTED');
  return result.envelope.remediation ?? '';
}

describe("nodwyn's own folders, through the real kernel", () => {
  it('refuses write_file and edit_file on the data folder, and the bindings stay as they were', async () => {
    const { kernel, home } = await homeInWorkspace();
    expect(await refused(kernel, 'write_file', { path: 'home/bindings.toml', content: '[classes.github]\nhosts = ["evil.example"]\n' })).toContain("nodwyn's data folder");
    await refused(kernel, 'edit_file', { path: 'home/bindings.toml', old_string: 'api.github.com', new_string: 'evil.example' });
    await refused(kernel, 'write_file', { path: 'home/node_modules/evil/index.js', content: 'process.exit(1)' });
    expect(readFileSync(join(home, 'bindings.toml'), 'utf8')).toBe(BINDINGS);
  });

  it("refuses the workspace's .nodwyn/ in any case, through .. and through a symlink", async () => {
    const { kernel, workspace } = await homeInWorkspace();
    symlinkSync(join(workspace, 'home'), join(workspace, 'innocent'));
    symlinkSync(join(workspace, '.nodwyn'), join(workspace, 'cfg'));
    expect(await refused(kernel, 'read_file', { path: '.nodwyn/config.toml' })).toContain('.nodwyn/');
    await refused(kernel, 'read_file', { path: '.NODWYN/config.toml' });
    await refused(kernel, 'read_file', { path: 'src/../home/log.key' });
    await refused(kernel, 'read_file', { path: 'HOME/log.key' });
    await refused(kernel, 'read_file', { path: 'innocent/log.key' });
    await refused(kernel, 'write_file', { path: 'cfg/config.toml', content: '[plugins]\n' });
    await refused(kernel, 'write_file', { path: 'innocent/new/plugin.js', content: 'x' });
    expect(readFileSync(join(workspace, '.nodwyn', 'config.toml'), 'utf8')).toBe('[tools]\n');
  });

  it('refuses list_dir, glob and grep aimed at them, and leaves them out of listings and searches', async () => {
    const { kernel } = await homeInWorkspace();
    await refused(kernel, 'list_dir', { path: 'home' });
    await refused(kernel, 'glob', { pattern: '*', path: '.nodwyn' });
    await refused(kernel, 'grep', { pattern: 'key', path: 'home' });
    const listing = await kernel.apply('list_dir', { depth: 3 });
    const found = await kernel.apply('glob', { pattern: '**/*' });
    const search = await kernel.apply('grep', { pattern: 'key material|api\\.github|tools|project' });
    for (const result of [listing, found, search]) {
      if (!result.ok) throw new Error(result.envelope.remediation);
      expect(result.content).not.toMatch(/home|\.nodwyn/i);
    }
    expect(found.ok && found.content).toBe('notes.txt');
    expect(search.ok && search.content).toBe('notes.txt:1:project file');
  });
});
