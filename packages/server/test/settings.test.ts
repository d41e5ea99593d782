import { SettingsGetResultSchema, SettingsValidateResultSchema } from '@nodwyn/protocol';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentText, InProcessAgent, rpcFailure, Sandbox, until } from './harness.js';

type Fields = Record<string, Record<string, { type: string; description: string; options?: string[]; min?: number; max?: number }>>;
type SettingsAnswer = { file: string; settings: Record<string, Record<string, unknown>>; fields: Fields };

const BEFORE = [
  '[provider]',
  'default = "anthropic"',
  '',
  '[provider.anthropic]',
  'model = "claude-sonnet-4-5"',
  'api_key = "anthropic"',
  '',
  '[budgets]',
  'max_turns = 7',
  '',
  '[prices.openai-compatible.qwen]',
  'input = 0.1',
  'output = 0.2',
  '',
  '[plugins."@nodwyn/plugin-egress"]',
  'allow_insecure_http = ["127.0.0.1"]',
  '',
].join('\n');

let sandbox: Sandbox;
let agent: InProcessAgent;
beforeEach(() => {
  sandbox = new Sandbox();
  agent = new InProcessAgent(sandbox);
});
afterEach(async () => {
  await agent.close();
  sandbox.remove();
});

describe('_nodwyn/settings/get', () => {
  it("answers the settable keys config.toml sets (never a provider's api_key) and a field for each key", async () => {
    writeFileSync(sandbox.configFile, BEFORE);
    const { agent: acp } = await agent.connect();
    const answer = await acp.request<SettingsAnswer>('_nodwyn/settings/get', {});
    expect(SettingsGetResultSchema.safeParse(answer).success).toBe(true);
    expect(answer.file).toBe(sandbox.configFile);
    expect(answer.settings).toEqual({ provider: { default: 'anthropic' }, 'provider.anthropic': { model: 'claude-sonnet-4-5' }, budgets: { max_turns: 7 } });
    expect(answer.fields.provider!.default).toMatchObject({ type: 'enum', options: ['anthropic', 'openai', 'openai-compatible'] });
    expect(Object.keys(answer.fields)).toEqual(expect.arrayContaining(['provider.openai-compatible', 'budgets', 'memory', 'distribution', 'loop', 'policy']));
    expect(answer.fields.budgets!.max_repeats).toMatchObject({ type: 'integer', min: 2 });
    expect(answer.fields.memory!.cross_session).toMatchObject({ type: 'boolean' });
    expect(answer.fields['provider.openai-compatible']!.base_url!.description).toMatch(/http/);
  });
});

describe('_nodwyn/settings/validate and set', () => {
  it('names the first bad key without saving; set refuses the same with -32602', async () => {
    writeFileSync(sandbox.configFile, BEFORE);
    const { agent: acp } = await agent.connect();
    const bad: [Record<string, Record<string, unknown>>, string, string][] = [
      [{ budgets: { max_turnz: 3 } }, 'SETTING_UNKNOWN', '$.settings.budgets.max_turnz'],
      [{ secrets: { x: 1 } }, 'SETTING_UNKNOWN', '$.settings.secrets'],
      [{ budgets: { max_turns: 'many' } }, 'SETTING_INVALID', '$.settings.budgets.max_turns'],
      [{ budgets: { max_turns: 2.5 } }, 'SETTING_INVALID', '$.settings.budgets.max_turns'],
      [{ budgets: { max_repeats: 1 } }, 'SETTING_INVALID', '$.settings.budgets.max_repeats'],
      [{ provider: { default: 'nope' } }, 'SETTING_INVALID', '$.settings.provider.default'],
      [{ 'provider.openai': { base_url: 'ftp://x' } }, 'SETTING_INVALID', '$.settings.provider.openai.base_url'],
      [{ memory: { cross_session: 'yes' } }, 'SETTING_INVALID', '$.settings.memory.cross_session'],
      [{ budgets: { max_cost_usd: 0 } }, 'CONFIG_INVALID', '$.budgets.max_cost_usd'],
    ];
    for (const [settings, code, where] of bad) {
      const verdict = await acp.request<{ ok: boolean; envelope?: Record<string, unknown> }>('_nodwyn/settings/validate', { settings });
      expect(verdict, where).toMatchObject({ ok: false, envelope: { status: 'error', code, failed_parameter: where } });
      expect(SettingsValidateResultSchema.safeParse(verdict).success).toBe(true);
      expect(await rpcFailure(acp.request('_nodwyn/settings/set', { settings })), where).toMatchObject({ code: -32602, data: { code, failed_parameter: where } });
    }
    expect(await acp.request('_nodwyn/settings/validate', { settings: { budgets: { max_turns: 9 } } })).toEqual({ ok: true });
    expect(await rpcFailure(acp.request('_nodwyn/settings/set', { settings: 'all' }))).toMatchObject({ code: -32602, data: { code: 'PARAMS_INVALID', failed_parameter: '$.settings' } });
    expect(readFileSync(sandbox.configFile, 'utf8')).toBe(BEFORE);
  });

  it('saves atomically (0600), keeps what it does not manage, and restarts the plugins live sessions go on with', async () => {
    writeFileSync(sandbox.configFile, BEFORE);
    sandbox.replies([{ text: 'first' }]);
    const { agent: acp, updates } = await agent.connect();
    const { sessionId } = await acp.request<{ sessionId: string }>('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    // No provider config for the scripted provider: the first prompt runs before the provider section goes.
    writeFileSync(sandbox.configFile, BEFORE.replace('[provider]\ndefault = "anthropic"\n', ''));
    await acp.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    const before = agent.sessions.live(sessionId)!.scope.kernel;

    const answer = await acp.request('_nodwyn/settings/set', {
      settings: { budgets: { max_turns: 12, max_cost_usd: 1.5 }, 'provider.anthropic': { model: 'claude-haiku-4-5' }, memory: { cross_session: true } },
    });
    expect(answer).toEqual({ file: sandbox.configFile, restarted: 1 });
    expect(statSync(sandbox.configFile).mode & 0o777).toBe(0o600);
    expect(parse(readFileSync(sandbox.configFile, 'utf8'))).toEqual({
      provider: { anthropic: { model: 'claude-haiku-4-5', api_key: 'anthropic' } },
      budgets: { max_turns: 12, max_cost_usd: 1.5 },
      memory: { cross_session: true },
      prices: { 'openai-compatible': { qwen: { input: 0.1, output: 0.2 } } },
      plugins: { '@nodwyn/plugin-egress': { allow_insecure_http: ['127.0.0.1'] } },
    });
    const live = agent.sessions.live(sessionId)!;
    expect(live.scope.kernel).not.toBe(before);
    expect((await live.scope.turn()).budgets).toMatchObject({ maxTurns: 12, maxCostUsd: 1.5 });

    // The session carries on in the new scope, its client still attached.
    sandbox.replies([{ text: 'second' }]);
    expect(await acp.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] })).toMatchObject({ stopReason: 'end_turn' });
    expect(agentText(updates, sessionId)).toBe('firstsecond');

    // A section given without a key unsets it; an emptied section goes.
    await acp.request('_nodwyn/settings/set', { settings: { memory: {}, budgets: { max_turns: 12 } } });
    expect(parse(readFileSync(sandbox.configFile, 'utf8'))).toMatchObject({ budgets: { max_turns: 12 } });
    expect(parse(readFileSync(sandbox.configFile, 'utf8'))).not.toHaveProperty('memory');
  });

  it('refuses with SESSION_BUSY, saving nothing, while a turn runs', async () => {
    sandbox.replies([{ toolCalls: [{ name: 'shell', args: { command: 'touch made.txt' } }] }, { text: 'Made it.' }]);
    const { agent: acp, asked } = await agent.connect();
    const { sessionId } = await acp.request<{ sessionId: string }>('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const prompt = acp.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'make it' }] });
    await until(() => asked.length === 1, 5000, 'the confirmation');
    expect(await rpcFailure(acp.request('_nodwyn/settings/set', { settings: { budgets: { max_turns: 3 } } }))).toMatchObject({ data: { code: 'SESSION_BUSY', received_value: sessionId } });
    expect(() => statSync(sandbox.configFile)).toThrow();
    agent.sessions.live(sessionId)!.cancel();
    await prompt;
    expect(await acp.request('_nodwyn/settings/set', { settings: { budgets: { max_turns: 3 } } })).toEqual({ file: sandbox.configFile, restarted: 1 });
  });
});
