import { API_VERSION, definePlugin, type PluginDefinition } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { preloadDistribution } from './preload-distribution.js';

function plugin(name: string, userOnlyConfig?: boolean): PluginDefinition {
  return definePlugin({ manifest: { name, version: '1.0.0', apiVersion: `^${API_VERSION}`, userOnlyConfig }, register: () => undefined });
}

describe('preloadDistribution', () => {
  it('reads which plugins keep their config section to the person, loading each entry once', async () => {
    const loads: string[] = [];
    const entry = (p: PluginDefinition) => ({ package: p.manifest.name, range: '^1.0.0', load: () => (loads.push(p.manifest.name), p) });
    const vault = plugin('vault', true);
    const { distribution, userOnly } = await preloadDistribution({ name: 'd', defaultFrontend: 'tui', plugins: [entry(vault), entry(plugin('notes'))] }, []);
    expect([...userOnly]).toEqual(['vault']);
    expect(await distribution.plugins[0]!.load()).toBe(vault);
    expect(loads).toEqual(['vault', 'notes']);
    expect(distribution.defaultFrontend).toBe('tui');
  });

  it('never imports a disabled entry, and hands a failed load on to fail the same way', async () => {
    let imported = false;
    const failure = new Error('missing module');
    const { distribution, userOnly } = await preloadDistribution(
      {
        name: 'd',
        plugins: [
          { package: 'off', range: '^1.0.0', optional: true, load: () => ((imported = true), plugin('off', true)) },
          { package: 'broken', range: '^1.0.0', load: () => Promise.reject(failure) },
        ],
      },
      ['off'],
    );
    expect([imported, userOnly.size]).toEqual([false, 0]);
    await expect(distribution.plugins[1]!.load()).rejects.toBe(failure);
  });

  it('marks nothing user-only from a manifest the host would refuse (that plugin never runs)', async () => {
    const odd = { manifest: { name: 'odd', version: 'one', apiVersion: '^0.1.0', userOnlyConfig: true }, register: () => undefined } as unknown as PluginDefinition;
    const { userOnly } = await preloadDistribution({ name: 'd', plugins: [{ package: 'odd', range: '^1.0.0', load: () => odd }] }, []);
    expect(userOnly.size).toBe(0);
  });
});
