import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_VERSION } from '@nodwyn/plugin-api';
import { importPlugin, packageEntry } from '../src/index.js';
import { createHost, distribution, RecordingKernel, rejection, row } from './helpers.js';

let dir: string;

/**
 * Writes `node_modules/<name>` under the temp dir: an ESM package whose index.js has `source`, its
 * package.json `exports` as given, and any `other` files.
 */
async function writePackage(name: string, source: string, exports: unknown = './index.js', other: Record<string, string> = {}): Promise<string> {
  const root = join(dir, 'node_modules', ...name.split('/'));
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'package.json'), JSON.stringify({ name, version: '1.2.0', type: 'module', exports }));
  await writeFile(join(root, 'index.js'), source);
  for (const [file, text] of Object.entries(other)) await writeFile(join(root, file), text);
  return root;
}

// Imports nothing from the workspace: a third-party plugin built elsewhere, manifest already parsed.
const HELLO_PLUGIN = `
export default {
  manifest: {
    name: '@acme/nodwyn-plugin-hello',
    version: '1.2.0',
    apiVersion: '^${API_VERSION}',
    provides: ['command:hello'],
    requires: [],
    permissions: [],
  },
  register(ctx) {
    ctx.commands.register({ name: 'hello', description: 'Says hello', async run({ io }) { io.write('hello'); return 0; } });
  },
};
`;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodwyn-plugin-host-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('third-party plugin packages', () => {
  it('imports a plugin package from a directory and loads it like any other', async () => {
    await writePackage('@acme/nodwyn-plugin-hello', HELLO_PLUGIN);
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    await host.load(distribution(packageEntry({ package: '@acme/nodwyn-plugin-hello', range: '^1.0.0', from: dir })));
    await host.start();
    expect(row(host, '@acme/nodwyn-plugin-hello')).toMatchObject({ state: 'started', version: '1.2.0', provides: ['command:hello'] });
    expect(kernel.registrations).toEqual(['@acme/nodwyn-plugin-hello command:hello']);
  });

  it('takes the single named export that is a plugin when there is no default', async () => {
    await writePackage('named-plugin', HELLO_PLUGIN.replace('export default {', 'export const version = 1;\nexport const helloPlugin = {'));
    const plugin = await importPlugin('named-plugin', dir);
    expect(plugin.manifest.name).toBe('@acme/nodwyn-plugin-hello');
  });

  it('rejects a module that exports no plugin', async () => {
    await writePackage('not-a-plugin', 'export const answer = 42;\nexport default { manifest: "nope" };\n');
    const envelope = await rejection(importPlugin('not-a-plugin', dir));
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'PLUGIN_EXPORT_MISSING', plugin: 'not-a-plugin' });
    expect(envelope.received_value).toBe('["answer","default"]');
  });

  it('rejects a module with several plugin exports and no default', async () => {
    const body = HELLO_PLUGIN.replace('export default {', 'const plugin = {');
    await writePackage('two-plugins', `${body}\nexport const one = plugin;\nexport const two = plugin;\n`);
    expect(await rejection(importPlugin('two-plugins', dir))).toMatchObject({ code: 'PLUGIN_EXPORT_AMBIGUOUS' });
  });

  it('reports a package that cannot be resolved as an optional plugin failure', async () => {
    const host = createHost(new RecordingKernel());
    await host.load(distribution(packageEntry({ package: 'nowhere-to-be-found', range: '*', from: dir, optional: true })));
    expect(row(host, 'nowhere-to-be-found')).toMatchObject({ state: 'failed', envelope: { category: 'NOT_FOUND', code: 'PLUGIN_NOT_FOUND', plugin: 'nowhere-to-be-found' } });
  });

  it('loads a plugin whose exports map offers only "import", as Node would import it', async () => {
    await writePackage('import-only', HELLO_PLUGIN, { '.': { types: './index.d.ts', import: './index.js' } });
    expect((await importPlugin('import-only', dir)).manifest.name).toBe('@acme/nodwyn-plugin-hello');
  });

  it('loads a plugin whose exports map offers only "require"', async () => {
    await writePackage('require-only', 'export default 1;\n', { '.': { require: './plugin.cjs' } }, { 'plugin.cjs': `module.exports = ${HELLO_PLUGIN.replace('export default ', '').trim().replace(/;$/, '')};\n` });
    expect((await importPlugin('require-only', dir)).manifest.name).toBe('@acme/nodwyn-plugin-hello');
  });

  it('names the conditions of an exports map that has no entry it can load', async () => {
    await writePackage('browser-only', HELLO_PLUGIN, { '.': { types: './index.d.ts', browser: './index.js' } });
    const envelope = await rejection(importPlugin('browser-only', dir));
    expect(envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'PLUGIN_EXPORTS_UNUSABLE', failed_parameter: 'exports', plugin: 'browser-only' });
    expect(envelope.remediation).toContain('exports map has no entry nodwyn can load (conditions: types, browser); add "default" or "import"');
  });

  it('says when an exports map has no "." entry at all', async () => {
    await writePackage('subpaths-only', HELLO_PLUGIN, { './plugin': './index.js' });
    expect((await rejection(importPlugin('subpaths-only', dir))).remediation).toContain('(no "." entry)');
  });

  it('says when the file an exports map names is not there, as in a plugin packed before it was built', async () => {
    await writePackage('unbuilt', HELLO_PLUGIN, { '.': { import: './dist/index.js' } });
    const envelope = await rejection(importPlugin('unbuilt', dir));
    expect(envelope).toMatchObject({ code: 'PLUGIN_EXPORTS_UNUSABLE', received_value: './dist/index.js' });
    expect(envelope.remediation).toContain('build the plugin before packing or linking it');
  });

  it("names the file, line and column of a syntax error in a file the plugin's entry imports", async () => {
    await writePackage('bad-syntax', `import { greeting } from './lib/greet.js';\n${HELLO_PLUGIN}`, './index.js', {});
    await mkdir(join(dir, 'node_modules', 'bad-syntax', 'lib'));
    await writeFile(join(dir, 'node_modules', 'bad-syntax', 'lib', 'greet.js'), "export const greeting = 'hi';\nexport const table = {\n  a: 1,,\n};\n");
    const envelope = await rejection(importPlugin('bad-syntax', dir));
    expect(envelope).toMatchObject({ code: 'PLUGIN_SYNTAX_ERROR', received_value: 'lib/greet.js:3:8', plugin: 'bad-syntax' });
    expect(envelope.remediation).not.toContain('bug in');
  });

  it('names the import that is not installed', async () => {
    await writePackage('lacks-a-dependency', `import 'left-pad-that-is-not-there';\n${HELLO_PLUGIN}`);
    const envelope = await rejection(importPlugin('lacks-a-dependency', dir));
    expect(envelope).toMatchObject({ code: 'PLUGIN_IMPORT_MISSING', plugin: 'lacks-a-dependency' });
    expect(envelope.remediation).toContain("Cannot find package 'left-pad-that-is-not-there'");
  });

  it('says a module that throws while imported failed before register(), not that it has a bug', async () => {
    await writePackage('throws-on-import', `throw new Error('NODWYN_TOKEN is not set');\n`);
    const envelope = await rejection(importPlugin('throws-on-import', dir));
    expect(envelope).toMatchObject({ code: 'PLUGIN_MODULE_THREW', received_value: 'NODWYN_TOKEN is not set' });
    expect(envelope.remediation).toContain('before register()');
  });
});
