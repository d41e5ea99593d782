import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_VERSION } from '@nodwyn/plugin-api';
import { importPlugin, packageEntry } from '../src/index.js';
import { createHost, distribution, RecordingKernel, rejection, row } from './helpers.js';

let dir: string;

/** Writes `node_modules/<name>` under the temp dir: an ESM package whose index.js has `source`. */
async function writePackage(name: string, source: string): Promise<void> {
  const root = join(dir, 'node_modules', ...name.split('/'));
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'package.json'), JSON.stringify({ name, version: '1.2.0', type: 'module', exports: './index.js' }));
  await writeFile(join(root, 'index.js'), source);
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
});
