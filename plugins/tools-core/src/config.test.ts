import { describe, expect, it } from 'vitest';
import { expectEnvelope } from '../test/call-context.js';
import { parseToolsConfig } from './config.js';

const parse = (settings: Record<string, unknown>) => Promise.resolve().then(() => parseToolsConfig(settings));

describe('parseToolsConfig', () => {
  it('fills every default when there is no [tools] section', () => {
    expect(parseToolsConfig({ other: { x: 1 } })).toEqual({
      maxEntries: 1000,
      shell: { allow: [], defaultTimeoutMs: 120_000, maxTimeoutMs: 600_000, passEnv: [] },
    });
  });

  it('parses the allow-list and the limits', () => {
    const config = parseToolsConfig({
      tools: { max_entries: 50, shell: { allow: ['git status', 'git log *'], default_timeout_ms: 30_000, max_timeout_ms: 60_000 } },
    });
    expect(config.maxEntries).toBe(50);
    expect(config.shell.allow).toEqual([
      { source: 'git status', words: ['git', 'status'], prefix: false },
      { source: 'git log *', words: ['git', 'log'], prefix: true },
    ]);
    expect(config.shell).toMatchObject({ defaultTimeoutMs: 30_000, maxTimeoutMs: 60_000 });
  });

  it('lowers the default timeout to a lowered maximum', () => {
    expect(parseToolsConfig({ tools: { shell: { max_timeout_ms: 10_000 } } }).shell.defaultTimeoutMs).toBe(10_000);
  });

  it('names the exact malformed allow-list entry', async () => {
    const envelope = await expectEnvelope(
      parse({ tools: { shell: { allow: ['git status', 'npm test', 'git status; rm -rf ~'] } } }),
      'VALIDATION_FAILED',
      'CONFIG_INVALID',
    );
    expect(envelope.failed_parameter).toBe('$.tools.shell.allow[2]');
    expect(envelope.received_value).toBe('git status; rm -rf ~');
    expect(envelope.remediation).toContain("prefix ending in ' *'");
  });

  it('refuses an allow-list entry that is not a string', async () => {
    const envelope = await expectEnvelope(parse({ tools: { shell: { allow: ['ls', 42] } } }), 'VALIDATION_FAILED', 'CONFIG_INVALID');
    expect(envelope.failed_parameter).toBe('$.tools.shell.allow[1]');
  });

  it('refuses an allow-list that is not an array', async () => {
    const envelope = await expectEnvelope(parse({ tools: { shell: { allow: 'git status' } } }), 'VALIDATION_FAILED', 'CONFIG_INVALID');
    expect(envelope.failed_parameter).toBe('$.tools.shell.allow');
  });

  it('refuses an unknown key in [tools.shell], such as a misspelt allow', async () => {
    const envelope = await expectEnvelope(parse({ tools: { shell: { alow: ['ls'] } } }), 'VALIDATION_FAILED', 'CONFIG_INVALID');
    expect(envelope.failed_parameter).toBe('$.tools.shell');
  });

  it('refuses a timeout that is not a whole number of milliseconds', async () => {
    const envelope = await expectEnvelope(parse({ tools: { shell: { max_timeout_ms: 1.5 } } }), 'VALIDATION_FAILED', 'CONFIG_INVALID');
    expect(envelope.failed_parameter).toBe('$.tools.shell.max_timeout_ms');
  });
});
