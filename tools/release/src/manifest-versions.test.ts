import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_VERSION, type PluginDefinition } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './repo-root.js';

interface PackageJson {
  readonly name: string;
  readonly version: string;
}

function packageJson(folder: string): PackageJson {
  return JSON.parse(readFileSync(join(REPO_ROOT, folder, 'package.json'), 'utf8')) as PackageJson;
}

function isPlugin(value: unknown): value is PluginDefinition {
  return typeof value === 'object' && value !== null && 'manifest' in value && 'register' in value;
}

const pluginFolders = readdirSync(join(REPO_ROOT, 'plugins')).map((entry) => `plugins/${entry}`);

/**
 * `nx release` bumps package.json; a manifest's `name` and `version` are what the host checks a
 * distribution's entry against, so they must say the same (docs/releasing.md).
 */
describe('plugin manifests match their package.json', () => {
  it.each(pluginFolders)('%s exports plugins whose manifest name and version are its package.json ones', async (folder) => {
    const pkg = packageJson(folder);
    const module = (await import(pkg.name)) as Record<string, unknown>;
    const plugins = Object.values(module).filter(isPlugin);
    expect(plugins.length, `${pkg.name} exports no plugin definition`).toBeGreaterThan(0);
    for (const plugin of plugins) {
      expect({ name: plugin.manifest.name, version: plugin.manifest.version }, `manifest in ${folder}/src`).toEqual({ name: pkg.name, version: pkg.version });
    }
  });

  it("keeps plugin-api's API_VERSION equal to its package.json version", () => {
    expect(API_VERSION).toBe(packageJson('packages/plugin-api').version);
  });
});
