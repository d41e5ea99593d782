import { describe, expect, it } from 'vitest';
import type { Config } from './config.js';
import { keyPaths, mergeConfig, splitRepoKeys } from './repo-config.js';

// What the first-party manifests declare as `userOnlyConfig` (apps/cli checks its distribution against this).
const USER_ONLY = new Set([
  '@nodwyn/plugin-keychain',
  '@nodwyn/plugin-egress',
  '@nodwyn/plugin-redact-l1',
  '@nodwyn/plugin-redact-l2',
  '@nodwyn/plugin-judge',
  '@nodwyn/plugin-capabilities',
  '@nodwyn/plugin-sandbox-quickjs',
  '@nodwyn/plugin-sandbox-deno',
  '@nodwyn/plugin-sandbox-node',
]);

describe('splitRepoKeys', () => {
  it('keeps tools, budgets and plugin sections, and drops every other table and the security plugins\' sections', () => {
    const { kept, dropped } = splitRepoKeys({
      tools: { shell: { allow: ['npm test'] } },
      budgets: { max_turns: 3 },
      plugins: { '@acme/notes': { max: 1 }, '@nodwyn/plugin-egress': { hosts: ['evil.example'] }, '@nodwyn/plugin-redact-l1': { allow: ['x'] } },
      bindings: [{ class: 'github' }],
      policy: { allow_insecure_http: true },
      distribution: { plugins: [] },
      provider: { default: 'other' },
    }, USER_ONLY);
    expect(Object.keys(kept)).toEqual(['tools', 'budgets', 'plugins']);
    expect(kept.plugins).toEqual({ '@acme/notes': { max: 1 } });
    expect(keyPaths(dropped)).toEqual(['bindings', 'policy.allow_insecure_http', 'distribution.plugins', 'provider.default', 'plugins."@nodwyn/plugin-egress".hosts', 'plugins."@nodwyn/plugin-redact-l1".allow']);
  });
});

describe('splitRepoKeys and self-extension', () => {
  it('never lets a repository turn off the confirmation of capabilities or open a runner\'s network', () => {
    const { kept, dropped } = splitRepoKeys({
      plugins: {
        '@nodwyn/plugin-capabilities': { confirm: 'never' },
        '@nodwyn/plugin-sandbox-deno': { unguarded_egress: true },
        '@nodwyn/plugin-sandbox-node': { network_cut: true },
        '@nodwyn/plugin-sandbox-quickjs': { any: 1 },
      },
    }, USER_ONLY);
    expect(kept.plugins).toEqual({});
    expect(keyPaths(dropped)).toEqual([
      'plugins."@nodwyn/plugin-capabilities".confirm',
      'plugins."@nodwyn/plugin-sandbox-deno".unguarded_egress',
      'plugins."@nodwyn/plugin-sandbox-node".network_cut',
      'plugins."@nodwyn/plugin-sandbox-quickjs".any',
    ]);
  });
});

describe('splitRepoKeys and the plugins that declare their section user-only', () => {
  it('drops exactly the sections of the plugins it is told are user-only, whoever they are', () => {
    const { kept, dropped } = splitRepoKeys({ plugins: { '@acme/vault': { url: 'https://evil.example' }, '@acme/notes': { max: 1 } } }, new Set(['@acme/vault']));
    expect(kept.plugins).toEqual({ '@acme/notes': { max: 1 } });
    expect(keyPaths(dropped)).toEqual(['plugins."@acme/vault".url']);
  });
});

describe('splitRepoKeys and the shell environment', () => {
  it('never lets a repository hand credential variables to commands', () => {
    const { kept, dropped } = splitRepoKeys({ tools: { shell: { allow: ['npm test'], pass_env: ['AWS_SECRET_ACCESS_KEY'] } } }, USER_ONLY);
    expect(kept.tools).toEqual({ shell: { allow: ['npm test'] } });
    expect(keyPaths(dropped)).toEqual(['tools.shell.pass_env']);
  });
});

describe('mergeConfig', () => {
  it('lets the repository win key by key, and unions the shell allow-list', () => {
    const user = { budgets: { max_turns: 50, max_tool_calls: 9 }, tools: { shell: { allow: ['git status', 'npm test'], max_timeout_ms: 5000 } } } as Config;
    const repo = { budgets: { max_turns: 3 }, tools: { shell: { allow: ['npm test', 'echo *'] } } } as Config;
    expect(mergeConfig(user, repo)).toEqual({
      budgets: { max_turns: 3, max_tool_calls: 9 },
      tools: { shell: { allow: ['git status', 'npm test', 'echo *'], max_timeout_ms: 5000 } },
    });
    expect(user.budgets?.max_turns).toBe(50);
  });

  it('keeps a `__proto__` key a plain key instead of changing any prototype', () => {
    const repo = JSON.parse('{"plugins": {"__proto__": {"polluted": true}}}') as Config;
    const merged = mergeConfig({ plugins: {} }, repo);
    expect(Object.keys(merged.plugins ?? {})).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((merged.plugins as Record<string, unknown>).polluted).toBeUndefined();
  });
});
