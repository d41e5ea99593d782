import type { ProviderChoice } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { startTui } from '../../test/tui-harness.js';

const PROVIDERS: ProviderChoice[] = [
  { id: 'anthropic', description: 'Claude models (needs an API key)', models: [{ id: 'claude-sonnet-4', input: 3, output: 15 }], needsKey: true, needsBaseUrl: false },
  { id: 'openai-compatible', description: 'A local server such as Ollama', models: [], needsKey: false, needsBaseUrl: true },
];

describe('the first-run setup', () => {
  it('asks for a provider, its key (masked) and a model, configures them, and goes on to the editor', async () => {
    const tui = await startTui({ answers: { listProviders: async () => ({ providers: PROVIDERS }) } });
    expect(tui.frame()).toContain('Set up a model provider');
    expect(tui.frame()).toContain('❯ anthropic');
    await tui.type('\r');
    expect(tui.frame()).toContain('anthropic API key:');
    await tui.type('sk-ant-secret-value', '\r');
    expect(tui.frame()).not.toContain('sk-ant-secret-value');
    expect(tui.frame()).toContain('❯ claude-sonnet-4');
    expect(tui.frame()).toContain('$3 in / $15 out per million tokens');
    await tui.type('\r');
    const configure = tui.client.calls.find((c) => c.method === 'configureProvider');
    expect(configure?.args).toEqual([{ provider: 'anthropic', apiKey: 'sk-ant-secret-value', model: 'claude-sonnet-4' }]);
    expect(tui.frame()).not.toContain('Set up a model provider');
    expect(tui.frame()).toContain('Using anthropic with claude-sonnet-4 (written to config.toml).');
    expect(tui.frame()).toContain('Ask anything');
    await tui.close();
  });

  it('asks a local server for its base URL (with a default) and a typed model, and shows a failure with a way to retry', async () => {
    let attempts = 0;
    const tui = await startTui({
      answers: {
        listProviders: async () => ({ providers: PROVIDERS }),
        configureProvider: async (choice) => {
          expect(choice).toEqual({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' });
          if (++attempts === 1) throw Object.assign(new Error('refused'), { envelope: { code: 'PROVIDER_UNREACHABLE', remediation: 'Nothing answered at that URL; start the server, then try again.' } });
          return { provider: choice.provider, model: choice.model, config: '/home/me/.config/nodwyn/config.toml' };
        },
      },
    });
    await tui.type('\u001B[B', '\r');
    expect(tui.frame()).toContain('Base URL: http://127.0.0.1:11434/v1');
    await tui.type('\r');
    expect(tui.frame()).toContain('Model id:');
    await tui.type('llama3.1', '\r');
    expect(tui.frame()).toContain('✗ Nothing answered at that URL; start the server, then try again.');
    await tui.type('\r', '\u001B[B', '\r', '\r', 'llama3.1', '\r');
    expect(tui.frame()).toContain('Using openai-compatible with llama3.1');
    expect(attempts).toBe(2);
    await tui.close();
  });

  it('is skipped with Esc, and not shown when a provider is configured', async () => {
    const skipped = await startTui({ answers: { listProviders: async () => ({ providers: PROVIDERS }) } });
    await skipped.type('\u001B');
    expect(skipped.frame()).not.toContain('Set up a model provider');
    expect(skipped.frame()).toContain('Ask anything');
    await skipped.close();
    const configured = await startTui({ answers: { listProviders: async () => ({ providers: PROVIDERS, configured: { provider: 'anthropic', model: 'claude-sonnet-4' } }) } });
    expect(configured.frame()).not.toContain('Set up a model provider');
    await configured.close();
  });
});
