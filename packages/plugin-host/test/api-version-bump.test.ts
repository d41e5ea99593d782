import { describe, expect, it } from 'vitest';
import { createHost, distribution, entry, RecordingKernel, row, testPlugin } from './helpers.js';

/**
 * A plugin built against plugin-api 0.1 declares `apiVersion: "^0.1.0"`. Under 0.x caret semantics a
 * patch release of the API (what a `feat` becomes while the API is 0.x, docs/releasing.md) keeps it
 * loading, and the next minor (0.2.0, what a breaking change becomes) refuses it. The host's API version
 * is injected, so the real `API_VERSION` is not edited.
 */
describe('apiVersion across an API bump', () => {
  async function load(hostApiVersion: string) {
    const events: string[] = [];
    const host = createHost(new RecordingKernel(), { apiVersion: hostApiVersion });
    await host.load(distribution(entry(testPlugin('built-for-0.1', { apiVersion: '^0.1.0' }, events), { optional: true })));
    return { report: row(host, 'built-for-0.1'), events };
  }

  it.each(['0.1.0', '0.1.1', '0.1.9'])('loads a ^0.1.0 plugin under host API %s', async (hostApiVersion) => {
    const { report, events } = await load(hostApiVersion);
    expect(report.envelope).toBeUndefined();
    expect(events).toContain('register:built-for-0.1');
  });

  it.each(['0.2.0', '1.0.0', '0.0.9'])('refuses a ^0.1.0 plugin under host API %s, before it registers', async (hostApiVersion) => {
    const { report, events } = await load(hostApiVersion);
    expect(report.state).toBe('failed');
    expect(report.envelope).toMatchObject({ code: 'PLUGIN_API_INCOMPATIBLE', plugin: 'built-for-0.1', received_value: '^0.1.0' });
    expect(report.envelope?.remediation).toContain(hostApiVersion);
    expect(events).toEqual([]);
  });
});
