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

  it('takes its default front end from [distribution] frontend, else the terminal one', () => {
    expect(defaultDistribution({}, '/p').defaultFrontend).toBe('tui');
    expect(defaultDistribution({ distribution: { frontend: 'web' } }, '/p').defaultFrontend).toBe('web');
  });

  it('names the terminal front end as an optional plugin, so a failure to load it stops nothing else', () => {
    const entry = defaultDistribution({}, '/p').plugins.find((p) => p.package === '@nodwyn/plugin-frontend-tui');
    expect(entry).toMatchObject({ range: '^0.1.0', optional: true });
  });
});
