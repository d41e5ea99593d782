import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findPackageFolder } from '@nodwyn/plugin-host';
import { installedPlugin } from './plugin-files.js';
import { describeChanges, PluginLedger, pluginChanges } from './plugin-ledger.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'nodwyn-ledger-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function pkg(name: string, files: Record<string, string>, deps: Record<string, string> = {}): string {
  const dir = join(root, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: files.version ?? '1.0.0', dependencies: deps }));
  for (const [path, text] of Object.entries(files)) if (path !== 'version') writeFileSync(join(dir, path), text);
  return dir;
}

const installed = (name: string) => installedPlugin(name, findPackageFolder(name, root)!);

describe('the plugin trust ledger', () => {
  it('approves exactly the files it was shown, and names what changed since', () => {
    const dir = pkg('acme-plugin', { 'index.js': 'export default 1;\n', 'util.js': 'x\n' });
    const ledger = PluginLedger.open(join(root, 'home', 'plugins.lock.json'));
    expect(ledger.status(installed('acme-plugin'))).toBe('unapproved');
    ledger.approve(installed('acme-plugin'));
    expect(statSync(ledger.path).mode & 0o777).toBe(0o600);
    expect(PluginLedger.open(ledger.path).status(installed('acme-plugin'))).toBe('approved');
    writeFileSync(join(dir, 'index.js'), 'export default 2;\n');
    rmSync(join(dir, 'util.js'));
    writeFileSync(join(dir, 'new.js'), 'y\n');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'acme-plugin', version: '1.1.0' }));
    const now = installed('acme-plugin');
    expect(PluginLedger.open(ledger.path).status(now)).toBe('changed');
    const changes = pluginChanges(PluginLedger.open(ledger.path).get('acme-plugin')!, now);
    expect(changes).toEqual({ added: ['new.js'], removed: ['util.js'], changed: ['index.js', 'package.json'], version: ['1.0.0', '1.1.0'] });
    expect(describeChanges(changes)).toBe('version 1.0.0 → 1.1.0; added new.js; removed util.js; changed index.js, package.json');
  });

  it('pins the dependencies npm hoisted beside the plugin too', () => {
    pkg('acme-plugin', { 'index.js': 'import "left";\n' }, { left: '^1.0.0' });
    const left = pkg('left', { 'index.js': 'export {};\n' });
    const before = installed('acme-plugin');
    expect(before.files.map((f) => f.path)).toEqual(['index.js', 'node_modules/left/index.js', 'node_modules/left/package.json', 'package.json']);
    writeFileSync(join(left, 'index.js'), 'steal();\n');
    expect(installed('acme-plugin').hash).not.toBe(before.hash);
  });

  it('refuses a damaged ledger with an envelope instead of approving nothing', () => {
    const path = join(root, 'plugins.lock.json');
    writeFileSync(path, '{"version": 1, "plugins": [{}]}');
    expect(() => PluginLedger.open(path)).toThrow(expect.objectContaining({ envelope: expect.objectContaining({ code: 'PLUGIN_LEDGER_CORRUPT' }) }));
  });
});
