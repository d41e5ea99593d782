import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeOpenAi } from './fake-openai.js';
import { agentText, InProcessAgent, rpcFailure, Sandbox } from './harness.js';

let sandbox: Sandbox;
let agent: InProcessAgent;
beforeEach(() => {
  sandbox = new Sandbox();
  agent = new InProcessAgent(sandbox);
  // A key from the environment would make "a key is needed" untestable.
  vi.stubEnv('ANTHROPIC_API_KEY', '');
  vi.stubEnv('OPENAI_API_KEY', '');
  vi.stubEnv('NODWYN_KEYCHAIN_PASSPHRASE', '');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await agent.close();
  sandbox.remove();
});

/** Every file under the data folder whose bytes hold `text`. */
function filesHolding(text: string): string[] {
  const holding: string[] = [];
  for (const entry of readdirSync(sandbox.home, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (readFileSync(path).includes(Buffer.from(text))) holding.push(path);
  }
  return holding;
}

/** Every event of every session whose JSON holds `text`. */
function eventsHolding(text: string): string[] {
  const log = agent.runtime.log;
  return log.sessions().flatMap((row) => log.read(row.id).filter((e) => JSON.stringify(e).includes(text)).map((e) => `${e.session}:${e.seq}`));
}

type ProvidersList = { providers: { id: string; models: { id: string; input?: number }[]; needsKey: boolean; needsBaseUrl: boolean }[]; configured?: { provider: string; model?: string } };

describe('_nodwyn/providers/list', () => {
  it('offers the real providers with their models and prices, what each needs, and nothing configured on a first run', async () => {
    const { agent: acp } = await agent.connect();
    const list = await acp.request<ProvidersList>('_nodwyn/providers/list', {});
    expect(list.providers.map((p) => [p.id, p.needsKey, p.needsBaseUrl])).toEqual([
      ['anthropic', true, false],
      ['openai', true, false],
      ['openai-compatible', false, true],
    ]);
    expect(list.providers[0]!.models).toContainEqual({ id: 'claude-sonnet-4-5', input: 3, output: 15 });
    expect(list.providers[2]!.models).toEqual([]);
    expect(list.configured).toBeUndefined();
  });

  it('says what config.toml configures, with [prices] added to the models', async () => {
    writeFileSync(sandbox.configFile, '[provider]\ndefault = "openai-compatible"\n\n[provider.openai-compatible]\nmodel = "qwen"\n\n[prices.openai-compatible.qwen]\ninput = 0.1\noutput = 0.2\n');
    const { agent: acp } = await agent.connect();
    const list = await acp.request<ProvidersList>('_nodwyn/providers/list', {});
    expect(list.configured).toEqual({ provider: 'openai-compatible', model: 'qwen' });
    expect(list.providers.find((p) => p.id === 'openai-compatible')!.models).toEqual([{ id: 'qwen', input: 0.1, output: 0.2 }]);
  });
});

describe('_nodwyn/providers/configure', () => {
  const KEY = 'sk-ant-api03-configure-test-0123456789abcdefghijklmnop';

  it('stores the key in the keychain only, binds its class to the host, and writes config.toml keeping the rest', async () => {
    writeFileSync(sandbox.configFile, '[budgets]\nmax_turns = 7\n\n[provider.openai]\nmodel = "gpt-4.1"\n');
    const { agent: acp } = await agent.connect();
    const answer = await acp.request('_nodwyn/providers/configure', { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: `${KEY}\n` });
    expect(answer).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5', secret: 'anthropic', config: sandbox.configFile });

    expect(parse(readFileSync(sandbox.configFile, 'utf8'))).toEqual({
      budgets: { max_turns: 7 },
      provider: { default: 'anthropic', openai: { model: 'gpt-4.1' }, anthropic: { model: 'claude-sonnet-4-5', api_key: 'anthropic' } },
    });
    expect(statSync(sandbox.configFile).mode & 0o777).toBe(0o600);
    expect(parse(readFileSync(join(sandbox.home, 'bindings.toml'), 'utf8'))).toEqual({
      'control-plane': [{ host: 'api.anthropic.com', positions: ['header:authorization'], methods: ['POST'] }],
    });
    const keychain = JSON.parse(readFileSync(join(sandbox.home, 'keychain.json'), 'utf8')) as { entries: Record<string, { class: string }> };
    expect(keychain.entries.anthropic?.class).toBe('control-plane');
    // The key itself: in no event and in no file, the keychain's ciphertext aside.
    expect(eventsHolding(KEY)).toEqual([]);
    expect(filesHolding(KEY)).toEqual([]);
    expect(filesHolding(KEY.slice(10, 40))).toEqual([]);

    const list = await acp.request<ProvidersList>('_nodwyn/providers/list', {});
    expect(list.configured).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    // Choosing another model later keeps the stored key.
    expect(await acp.request('_nodwyn/providers/configure', { provider: 'anthropic', model: 'claude-haiku-4-5' })).toMatchObject({ secret: 'anthropic' });
    expect((parse(readFileSync(sandbox.configFile, 'utf8')) as { provider: Record<string, unknown> }).provider.anthropic).toEqual({ model: 'claude-haiku-4-5', api_key: 'anthropic' });
  });

  it('refuses what it cannot set up, each with an envelope, leaving config, keychain and bindings as they were', async () => {
    const before = '[budgets]\nmax_turns = 7\n';
    writeFileSync(sandbox.configFile, before);
    const { agent: acp } = await agent.connect();
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ provider: 'nope', model: 'm', apiKey: KEY }, 'PROVIDER_UNKNOWN', '$.provider'],
      [{ provider: 'scripted', model: 'm' }, 'PROVIDER_UNKNOWN', '$.provider'],
      [{ provider: 'anthropic', model: 'claude-nonexistent', apiKey: KEY }, 'MODEL_UNKNOWN', '$.model'],
      [{ provider: 'anthropic', model: 'claude-sonnet-4-5' }, 'API_KEY_REQUIRED', '$.apiKey'],
      [{ provider: 'openai-compatible', model: 'qwen' }, 'BASE_URL_INVALID', '$.baseUrl'],
      [{ provider: 'openai-compatible', model: 'qwen', baseUrl: 'ftp://127.0.0.1/v1' }, 'BASE_URL_INVALID', '$.baseUrl'],
    ];
    for (const [params, code, parameter] of refusals) {
      const failure = await rpcFailure(acp.request('_nodwyn/providers/configure', params));
      expect(failure, code).toMatchObject({ code: -32602, data: { code, failed_parameter: parameter } });
      expect(JSON.stringify(failure)).not.toContain(KEY);
    }
    // A remote OpenAI-compatible server without a key: the provider itself refuses, before anything is written.
    const remote = await rpcFailure(acp.request('_nodwyn/providers/configure', { provider: 'openai-compatible', model: 'qwen', baseUrl: 'https://llm.example.com/v1' }));
    expect(remote.data).toMatchObject({ code: 'CREDENTIAL_MISSING' });
    // A broken config.toml is named, not overwritten.
    writeFileSync(sandbox.configFile, '[budgets]\nmax_turns = "many"\n');
    expect(await rpcFailure(acp.request('_nodwyn/providers/configure', { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: KEY }))).toMatchObject({ data: { code: 'CONFIG_INVALID' } });
    expect(readFileSync(sandbox.configFile, 'utf8')).toBe('[budgets]\nmax_turns = "many"\n');
    expect([existsSync(join(sandbox.home, 'keychain.json')), existsSync(join(sandbox.home, 'bindings.toml'))]).toEqual([false, false]);
    expect(filesHolding(KEY)).toEqual([]);
  });

  it('makes the next prompt of a session opened before it use the new provider, its key sent only to the bound host', async () => {
    const local = await fakeOpenAi('Hello from the local model');
    const key = 'local-server-key-0123456789abcdef';
    try {
      sandbox.replies([{ text: 'scripted answer' }]);
      const { agent: acp, updates } = await agent.connect();
      const { sessionId } = await acp.request<{ sessionId: string }>('session/new', { cwd: sandbox.workspace, mcpServers: [] });
      await acp.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'before' }] });
      expect(agentText(updates, sessionId)).toBe('scripted answer');

      const answer = await acp.request('_nodwyn/providers/configure', { provider: 'openai-compatible', model: 'local-model', baseUrl: local.url, apiKey: key });
      expect(answer).toMatchObject({ provider: 'openai-compatible', secret: 'openai-compatible' });
      const response = await acp.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'after' }] });
      expect(response.stopReason).toBe('end_turn');
      expect(agentText(updates, sessionId)).toBe('scripted answerHello from the local model');
      expect(local.seen).toHaveLength(1);
      expect(local.seen[0]!.body.model).toBe('local-model');
      expect(local.seen[0]!.headers.authorization).toBe(`Bearer ${key}`);
      const assistant = agent.runtime.log.read(sessionId).filter((e) => e.type === 'message.assistant').at(-1)!;
      expect(assistant.payload).toMatchObject({ provider: 'openai-compatible', model: 'local-model' });
      expect(eventsHolding(key)).toEqual([]);
      expect(filesHolding(key)).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
