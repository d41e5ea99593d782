import { describe, expect, it } from 'vitest';
import { API_VERSION, definePlugin, type PluginDefinition } from '@nodwyn/plugin-api';
import { createHost, distribution, entry, rejection, RecordingKernel, row, testPlugin } from './helpers.js';

/** A plugin object written by hand (not through definePlugin), so the host is the first to validate it. */
function rawPlugin(manifest: Record<string, unknown>, registered: string[] = []): PluginDefinition {
  return {
    manifest: { name: 'raw', version: '1.0.0', provides: [], requires: [], permissions: [], ...manifest },
    register: () => {
      registered.push('raw');
    },
  } as unknown as PluginDefinition;
}

async function loadOptional(plugin: PluginDefinition, options: { range?: string; package?: string } = {}) {
  const host = createHost(new RecordingKernel());
  await host.load(distribution(entry(plugin, { optional: true, ...options })));
  return row(host, options.package ?? plugin.manifest.name);
}

describe('manifest checks', () => {
  it('refuses an apiVersion range the host does not satisfy, naming plugin, range and host version', async () => {
    const report = await loadOptional(testPlugin('future', { apiVersion: '^2.0.0' }, []));
    expect(report.state).toBe('failed');
    expect(report.envelope).toMatchObject({
      category: 'PRECONDITION_FAILED',
      code: 'PLUGIN_API_INCOMPATIBLE',
      plugin: 'future',
      failed_parameter: '$.apiVersion',
      received_value: '^2.0.0',
    });
    expect(report.envelope?.remediation).toContain('future');
    expect(report.envelope?.remediation).toContain('^2.0.0');
    expect(report.envelope?.remediation).toContain(API_VERSION);
  });

  it.each(['*', 'x', '>=0.0.0', '>=0.1.0', `^${API_VERSION} || >=1.0.0`])('refuses the vague apiVersion range %j', async (range) => {
    const report = await loadOptional(testPlugin('vague', { apiVersion: range }, []));
    expect(report.envelope).toMatchObject({ code: 'PLUGIN_API_RANGE_VAGUE', category: 'VALIDATION_FAILED', plugin: 'vague', received_value: range });
  });

  it('refuses an empty apiVersion as vague (semver reads it as "*")', async () => {
    const registered: string[] = [];
    const report = await loadOptional(rawPlugin({ apiVersion: '' }, registered));
    expect(report.envelope).toMatchObject({ code: 'PLUGIN_API_RANGE_VAGUE', plugin: 'raw', failed_parameter: '$.apiVersion' });
    expect(registered).toEqual([]);
  });

  it('accepts bounded ranges the host satisfies', async () => {
    for (const range of [`^${API_VERSION}`, API_VERSION, '0.x', `>=${API_VERSION} <1.0.0`]) {
      expect((await loadOptional(testPlugin('fine', { apiVersion: range }, []))).state).toBe('registered');
    }
  });

  it('reports a manifest the schema rejects with the JSON path of the bad field', async () => {
    const report = await loadOptional(rawPlugin({ apiVersion: `^${API_VERSION}`, provides: ['nonsense'] }));
    expect(report.envelope).toMatchObject({
      category: 'VALIDATION_FAILED',
      code: 'PLUGIN_MANIFEST_INVALID',
      plugin: 'raw',
      failed_parameter: '$.provides[0]',
      received_value: 'nonsense',
    });
  });

  it('names an unknown manifest key in failed_parameter', async () => {
    const report = await loadOptional(rawPlugin({ apiVersion: `^${API_VERSION}`, colour: 'blue' }));
    expect(report.envelope).toMatchObject({ code: 'PLUGIN_MANIFEST_INVALID', failed_parameter: '$.colour' });
  });

  it('refuses an apiVersion that is not a semver range as an invalid manifest', async () => {
    const report = await loadOptional(testPlugin('odd', { apiVersion: 'banana' }, []));
    expect(report.envelope).toMatchObject({ code: 'PLUGIN_MANIFEST_INVALID', failed_parameter: '$.apiVersion', received_value: 'banana' });
  });

  it('refuses a plugin whose version is outside the distribution range', async () => {
    const report = await loadOptional(testPlugin('old', { version: '1.4.0' }, []), { range: '^2.0.0' });
    expect(report).toMatchObject({ state: 'failed', version: '1.4.0' });
    expect(report.envelope).toMatchObject({ code: 'PLUGIN_VERSION_MISMATCH', plugin: 'old', received_value: '1.4.0', expected: '^2.0.0', failed_parameter: '$.version' });
  });

  it('refuses a plugin whose manifest name is not the package the distribution names', async () => {
    const report = await loadOptional(testPlugin('impostor', {}, []), { package: '@acme/real' });
    expect(report.envelope).toMatchObject({ code: 'PLUGIN_NAME_MISMATCH', plugin: '@acme/real', received_value: 'impostor', expected: '@acme/real' });
  });

  it('fails a plugin whose loader throws, and ones whose loader returns no plugin or a non-function hook', async () => {
    const host = createHost(new RecordingKernel());
    await host.load(
      distribution(
        { package: 'throws', range: '*', optional: true, load: () => Promise.reject(new Error('disk on fire')) },
        { package: 'garbage', range: '*', optional: true, load: () => ({ hello: 1 }) as unknown as PluginDefinition },
        { package: 'odd-hook', range: '*', optional: true, load: () => ({ ...testPlugin('odd-hook', {}, []), start: 'soon' }) as unknown as PluginDefinition },
      ),
    );
    expect(row(host, 'throws').envelope).toMatchObject({ code: 'PLUGIN_LOAD_FAILED', category: 'INTERNAL', plugin: 'throws' });
    expect(row(host, 'throws').envelope?.remediation).toContain('disk on fire');
    expect(row(host, 'garbage').envelope).toMatchObject({ code: 'PLUGIN_DEFINITION_INVALID', plugin: 'garbage' });
    expect(row(host, 'odd-hook').envelope).toMatchObject({ code: 'PLUGIN_DEFINITION_INVALID', plugin: 'odd-hook' });
  });

  it('rejects load with the envelope of a refused required plugin before any plugin registers', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    const load = host.load(distribution(entry(testPlugin('ok', {}, events)), entry(testPlugin('future', { apiVersion: '^9.0.0' }, events))));
    expect(await rejection(load)).toMatchObject({ code: 'PLUGIN_API_INCOMPATIBLE', plugin: 'future' });
    expect(events).toEqual([]);
  });

  it('refuses a distribution that names a package twice or gives an unreadable range', async () => {
    const plugin = definePlugin({ manifest: { name: 'dup', version: '1.0.0', apiVersion: `^${API_VERSION}` }, register: () => undefined });
    const twice = await rejection(createHost(new RecordingKernel()).load(distribution(entry(plugin), entry(plugin))));
    expect(twice).toMatchObject({ code: 'DISTRIBUTION_INVALID', plugin: 'dup', failed_parameter: '$.plugins[1].package' });
    const badRange = await rejection(createHost(new RecordingKernel()).load(distribution(entry(plugin, { range: 'one point oh' }))));
    expect(badRange).toMatchObject({ code: 'DISTRIBUTION_INVALID', failed_parameter: '$.plugins[0].range' });
  });

  it('does not load an optional plugin disabled by config, and refuses to disable a required one', async () => {
    let loads = 0;
    const plugin = testPlugin('extra', {}, []);
    const counted = { package: 'extra', range: '^1.0.0', optional: true, load: () => (loads++, plugin) };
    const host = createHost(new RecordingKernel(), { disabled: ['extra'] });
    await host.load(distribution(counted));
    expect(row(host, 'extra')).toMatchObject({ state: 'disabled', version: undefined });
    expect(loads).toBe(0);
    const strict = createHost(new RecordingKernel(), { disabled: ['extra'] });
    expect(await rejection(strict.load(distribution({ ...counted, optional: false })))).toMatchObject({ code: 'PLUGIN_REQUIRED_DISABLED', plugin: 'extra' });
  });
});
