import { describe, expect, it } from 'vitest';
import { PLUGIN_KINDS } from './kinds/index.js';
import { pluginFiles, PluginTemplateError } from './plugin-files.js';

describe('pluginFiles', () => {
  it.each(PLUGIN_KINDS)('writes a %s plugin, its conformance test and its package, in either layout', (kind) => {
    const standalone = pluginFiles({ kind, name: '@acme/nodwyn-plugin-word-count', layout: 'standalone' });
    expect(Object.keys(standalone).sort()).toEqual(['.gitignore', 'README.md', 'package.json', 'src/index.test.ts', 'src/index.ts', 'tsconfig.json', 'vitest.config.ts']);
    expect(standalone['src/index.ts']).toContain("export const PLUGIN = '@acme/nodwyn-plugin-word-count';");
    expect(standalone['src/index.test.ts']).toMatch(/describe\w+Conformance\(/);
    const pkg = JSON.parse(standalone['package.json']!) as { peerDependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.peerDependencies).toEqual({ '@nodwyn/plugin-api': '^0.1.0' });
    expect(pkg.devDependencies).toMatchObject({ '@nodwyn/plugin-api': '0.1.0', '@nodwyn/testing': '0.1.0', typescript: '5.9.3', vitest: '4.1.12' });
    expect(standalone['README.md']).toContain('nodwyn plugins add ./nodwyn-plugin-word-count --yes');

    const monorepo = pluginFiles({ kind, name: 'word-count', layout: 'monorepo' });
    expect(JSON.parse(monorepo['package.json']!)).toMatchObject({ name: '@nodwyn/plugin-word-count', nx: { tags: ['type:plugin'] } });
    expect(JSON.parse(monorepo['tsconfig.json']!)).toMatchObject({ extends: '../../tsconfig.base.json' });
    expect(monorepo['src/index.ts']).toBe(standalone['src/index.ts']!.replace('@acme/nodwyn-plugin-word-count', '@nodwyn/plugin-word-count'));
  });

  it('names the tool, the provider and the stage after NAME', () => {
    expect(pluginFiles({ kind: 'tool', name: 'word-count', layout: 'monorepo' })['src/index.ts']).toContain("name: 'word_count'");
    expect(pluginFiles({ kind: 'provider', name: 'word-count', layout: 'monorepo' })['src/index.ts']).toContain("provides: ['provider:word-count']");
    expect(pluginFiles({ kind: 'stage', name: 'word-count', layout: 'monorepo' })['src/index.ts']).toContain('export const wordCountStage');
  });

  it('reaches the workspace root from a deeper --directory', () => {
    const files = pluginFiles({ kind: 'loop', name: 'careful', layout: 'monorepo', directory: 'plugins/loops/careful' });
    expect(JSON.parse(files['tsconfig.json']!)).toMatchObject({ extends: '../../../tsconfig.base.json' });
  });

  it.each([
    ['Word Count', 'standalone'],
    ['../escape', 'standalone'],
    ['@acme/', 'standalone'],
    ['-leading-hyphen', 'standalone'],
    ['word_count', 'monorepo'],
    ['@acme/x', 'monorepo'],
    ['', 'monorepo'],
  ] as const)('refuses the name %j (%s), saying what a name is', (name, layout) => {
    expect(() => pluginFiles({ kind: 'tool', name, layout })).toThrow(PluginTemplateError);
  });

  it('refuses an unknown kind, listing the kinds', () => {
    expect(() => pluginFiles({ kind: 'widget' as 'tool', name: 'x', layout: 'monorepo' })).toThrow(/one of tool, provider, stage, frontend, sandbox, loop/);
  });
});
