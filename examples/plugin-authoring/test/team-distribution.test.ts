import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { teamDistribution } from '../src/team-distribution.js';

describe('teamDistribution', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('names the notes plugin as required and imports it from the folder it is given', async () => {
    root = mkdtempSync(join(tmpdir(), 'nodwyn-team-dist-'));
    const pkg = join(root, 'node_modules', '@acme', 'nodwyn-plugin-notes');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@acme/nodwyn-plugin-notes', version: '1.0.0', type: 'module', exports: './index.js' }));
    writeFileSync(join(pkg, 'index.js'), "export default { manifest: { name: '@acme/nodwyn-plugin-notes', version: '1.0.0' }, register() {} };\n");
    const distribution = teamDistribution(root);
    expect(distribution.name).toBe('acme-team');
    const [entry] = distribution.plugins;
    expect(entry).toMatchObject({ package: '@acme/nodwyn-plugin-notes', range: '^1.0.0', optional: false });
    expect((await entry!.load()).manifest.name).toBe('@acme/nodwyn-plugin-notes');
  });
});
