import { distributionFor, preloadDistribution } from '@nodwyn/runtime';
import { describe, expect, it } from 'vitest';
import type { DistFile } from './dist-file.js';
import { takeDistributionFlag } from './distribution-choice.js';
import { defaultDistribution, fileDistribution, type ThirdPartyGate } from './distribution.js';

describe('the default distribution', () => {
  it('keeps the config sections of the plugins that guard secrets, the judge and self-extension to the person', async () => {
    const { userOnly } = await preloadDistribution(defaultDistribution({}, '/nonexistent-plugin-root'), []);
    expect([...userOnly].sort()).toEqual([
      '@nodwyn/plugin-capabilities',
      '@nodwyn/plugin-egress',
      '@nodwyn/plugin-judge',
      '@nodwyn/plugin-keychain',
      '@nodwyn/plugin-mcp',
      '@nodwyn/plugin-openapi',
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

describe('a distribution file', () => {
  const file = (unsafeTest: boolean): DistFile => ({
    path: '/d/nodwyn.dist.toml',
    dir: '/d',
    name: 'small',
    version: '1.0.0',
    plugins: [{ package: '@nodwyn/plugin-tools-core', range: '^0.1.0' }, { package: '@nodwyn/plugin-judge', range: '^0.1.0', optional: true }],
    config: {},
    unsafeTest,
  });
  const gate: ThirdPartyGate = (options) => ({ package: options.package, range: options.range, optional: options.optional, load: () => Promise.reject(new Error('not installed')) });

  it('adds the security plugins it does not name and keeps those it names required', () => {
    const distribution = distributionFor(fileDistribution(file(false), gate), {}, '/p');
    expect(distribution.plugins.map((p) => [p.package, p.optional])).toEqual([
      ['@nodwyn/plugin-keychain', false],
      ['@nodwyn/plugin-redact-l1', false],
      ['@nodwyn/plugin-redact-l2', false],
      ['@nodwyn/plugin-egress', false],
      ['@nodwyn/plugin-tools-core', false],
      ['@nodwyn/plugin-judge', false],
    ]);
  });

  it('adds nothing to a test distribution, and puts the person\'s own plugins on top', () => {
    const config = { distribution: { plugins: [{ package: 'acme', range: '^1.0.0' }] } };
    const distribution = distributionFor(fileDistribution(file(true), gate), config, '/p');
    expect(distribution.plugins.map((p) => [p.package, p.optional])).toEqual([
      ['@nodwyn/plugin-tools-core', false],
      ['@nodwyn/plugin-judge', true],
      ['acme', true],
    ]);
  });

  it('takes --distribution only before the command name', () => {
    expect(() => takeDistributionFlag(['node', 'nodwyn', '--distribution', '/nowhere.toml', 'run'], {})).toThrow(/nowhere\.toml/);
    expect(takeDistributionFlag(['node', 'nodwyn', 'run', '--distribution', 'x'], {})).toEqual(['node', 'nodwyn', 'run', '--distribution', 'x']);
  });
});
