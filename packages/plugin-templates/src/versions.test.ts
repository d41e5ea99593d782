import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSIONS } from './versions.js';

const REPO = join(import.meta.dirname, '..', '..', '..');
const manifest = (path: string) => JSON.parse(readFileSync(join(REPO, path, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };

describe('the versions a standalone plugin pins', () => {
  it('are the workspace packages and tools it is tested with', () => {
    const root = manifest('.');
    expect(VERSIONS).toEqual({
      pluginApi: manifest('packages/plugin-api').version,
      testing: manifest('packages/testing').version,
      apiRange: `^${manifest('packages/plugin-api').version}`,
      vitest: root.devDependencies.vitest,
      typescript: root.devDependencies.typescript,
      typesNode: root.devDependencies['@types/node'],
      firstPartyPlugins: manifest('plugins/sandbox-quickjs').version,
    });
    for (const plugin of ['tools-core', 'keychain', 'egress', 'redact-l1', 'redact-l2']) expect(manifest(`plugins/${plugin}`).version).toBe(VERSIONS.firstPartyPlugins);
  });
});
