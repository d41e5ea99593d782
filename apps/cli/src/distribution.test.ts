import { preloadDistribution } from '@nodwyn/runtime';
import { describe, expect, it } from 'vitest';
import { defaultDistribution } from './distribution.js';

describe('the default distribution', () => {
  it('keeps the config sections of the plugins that guard secrets, the judge and self-extension to the person', async () => {
    const { userOnly } = await preloadDistribution(defaultDistribution({}, '/nonexistent-plugin-root'), []);
    expect([...userOnly].sort()).toEqual([
      '@nodwyn/plugin-capabilities',
      '@nodwyn/plugin-egress',
      '@nodwyn/plugin-judge',
      '@nodwyn/plugin-keychain',
      '@nodwyn/plugin-redact-l1',
      '@nodwyn/plugin-redact-l2',
      '@nodwyn/plugin-sandbox-deno',
      '@nodwyn/plugin-sandbox-node',
      '@nodwyn/plugin-sandbox-quickjs',
    ]);
  });

  it('takes its default front end from [distribution] frontend', () => {
    expect(defaultDistribution({}, '/p').defaultFrontend).toBeUndefined();
    expect(defaultDistribution({ distribution: { frontend: 'tui' } }, '/p').defaultFrontend).toBe('tui');
  });
});
