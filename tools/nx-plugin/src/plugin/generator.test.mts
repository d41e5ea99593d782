import * as templates from '@nodwyn/plugin-templates';
import { PLUGIN_KINDS, pluginFiles } from '@nodwyn/plugin-templates';
import type { Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import pluginGenerator from './generator.cjs';

const REPO = join(import.meta.dirname, '..', '..', '..', '..');
const load = async () => templates;

function workspace(workspaces: readonly string[] = ['packages/*', 'plugins/*']): Tree {
  const tree = createTreeWithEmptyWorkspace();
  tree.write('package.json', JSON.stringify({ name: 'ws', private: true, workspaces }));
  return tree;
}

function written(tree: Tree, dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string): void => {
    for (const child of tree.children(path)) {
      const full = `${path}/${child}`;
      if (tree.isFile(full)) out[full.slice(dir.length + 1)] = tree.read(full, 'utf8')!;
      else walk(full);
    }
  };
  walk(dir);
  return out;
}

describe('nx g @nodwyn/tools:plugin', () => {
  it.each(PLUGIN_KINDS)('writes exactly the %s files pluginFiles gives, under plugins/NAME', async (kind) => {
    const tree = workspace();
    await pluginGenerator(tree, { name: 'demo', kind }, load);
    expect(written(tree, 'plugins/demo')).toEqual(pluginFiles({ kind, name: 'demo', layout: 'monorepo' }));
    expect(JSON.parse(tree.read('package.json', 'utf8')!).workspaces).toEqual(['packages/*', 'plugins/*']);
  });

  it('writes into --directory, and adds a folder no workspace glob covers to the workspaces', async () => {
    const tree = workspace();
    await pluginGenerator(tree, { name: 'careful', kind: 'loop', directory: 'extras/careful' }, load);
    expect(written(tree, 'extras/careful')).toEqual(pluginFiles({ kind: 'loop', name: 'careful', layout: 'monorepo', directory: 'extras/careful' }));
    expect(JSON.parse(tree.read('package.json', 'utf8')!).workspaces).toEqual(['packages/*', 'plugins/*', 'extras/careful']);
  });

  it('refuses a folder that holds something, a bad NAME and an unknown kind, writing nothing', async () => {
    const tree = workspace();
    tree.write('plugins/demo/notes.md', 'mine');
    await expect(pluginGenerator(tree, { name: 'demo', kind: 'tool' }, load)).rejects.toThrow(/plugins\/demo already exists and is not empty/);
    await expect(pluginGenerator(tree, { name: 'Demo Tool', kind: 'tool' }, load)).rejects.toThrow(/kebab|lowercase/);
    await expect(pluginGenerator(tree, { name: 'other', kind: 'widget' }, load)).rejects.toThrow(/one of tool, provider/);
    expect(tree.children('plugins')).toEqual(['demo']);
    expect(tree.children('plugins/demo')).toEqual(['notes.md']);
  });

  it('resolves as a real nx command in this workspace (--dry-run writes nothing)', () => {
    const result = spawnSync('npx', ['nx', 'g', '@nodwyn/tools:plugin', '--kind', 'tool', 'generator-dry-run', '--dry-run', '--no-interactive'], { cwd: REPO, encoding: 'utf8', timeout: 240_000, env: { ...process.env, NX_DAEMON: 'false', FORCE_COLOR: '0' } });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    for (const file of Object.keys(pluginFiles({ kind: 'tool', name: 'generator-dry-run', layout: 'monorepo' }))) expect(stripVTControlCharacters(result.stdout)).toContain(`CREATE plugins/generator-dry-run/${file}`);
    expect(existsSync(join(REPO, 'plugins', 'generator-dry-run'))).toBe(false);
  }, 240_000);
});
