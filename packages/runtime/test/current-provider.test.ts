import { API_VERSION, definePlugin, type ModelProvider, type ProviderOptions } from '@nodwyn/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPath, openRuntime, turnSetup, validateConfig, withCurrentProvider, type Runtime } from '../src/index.js';
import { entry, RuntimeFixture } from './fixture.js';

let fx: RuntimeFixture;
let runtime: Runtime | undefined;
beforeEach(() => {
  fx = new RuntimeFixture();
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  fx.remove();
});

/** Two providers that only say which one was made, with which options. */
const providers = definePlugin({
  manifest: { name: 'two-providers', version: '1.0.0', apiVersion: `^${API_VERSION}`, provides: ['provider:first', 'provider:second', 'loop:default'] },
  register(ctx) {
    for (const id of ['first', 'second']) {
      ctx.providers.register({ id, description: `the ${id} provider`, models: [{ id: 'small', contextTokens: 32_000 }, { id: 'huge', contextTokens: 1_000_000 }], create: (options: ProviderOptions): ModelProvider => ({ id, model: options.model, stream: async function* () {} }) });
    }
    ctx.loops.register({ id: 'default', description: 'never runs here', run: async () => ({ answer: '' }) });
  },
});

describe('withCurrentProvider: a running scope follows the person\'s [provider]', () => {
  it('makes the next turn use the provider the person configured after the scope booted, keeping the workspace\'s other settings', async () => {
    fx.userConfig('[provider]\ndefault = "first"\n\n[provider.first]\nmodel = "one"\n\n[budgets]\nmax_turns = 4\n');
    runtime = await openRuntime({ distribution: { name: 'test', plugins: [{ ...entry(providers), range: '^1.0.0' }] }, onNotice: () => undefined, env: fx.env });
    const scope = await runtime.scope(fx.workspace('ws'));
    const file = configPath(fx.env);
    const before = await turnSetup({ ...scope, config: withCurrentProvider(scope.config, file) });
    expect([before.provider.id, before.provider.model, before.budgets.maxTurns]).toEqual(['first', 'one', 4]);

    fx.userConfig('[provider]\ndefault = "second"\n\n[provider.second]\nmodel = "two"\n');
    const after = await turnSetup({ ...scope, config: withCurrentProvider(scope.config, file) });
    expect([after.provider.id, after.provider.model]).toEqual(['second', 'two']);
    // The scope's own budgets (read at boot) stay; only [provider] is read again.
    expect(after.budgets.maxTurns).toBe(4);
    // A session's own choice (/model) goes over it.
    expect((await turnSetup({ ...scope, config: withCurrentProvider(scope.config, file) }, { provider: 'first', model: 'three' })).provider).toMatchObject({ id: 'first', model: 'three' });
  });

  it('drops [provider] when the person removed it, and fails with the file\'s envelope when it no longer parses', () => {
    fx.userConfig('[budgets]\nmax_turns = 2\n');
    const scoped = validateConfig({ provider: { default: 'first' }, budgets: { max_turns: 2 } }, 'test');
    expect(withCurrentProvider(scoped, configPath(fx.env))).toEqual({ budgets: { max_turns: 2 } });
    fx.userConfig('[provider\n');
    expect(() => withCurrentProvider({}, configPath(fx.env))).toThrow(expect.objectContaining({ envelope: expect.objectContaining({ code: 'CONFIG_INVALID_TOML' }) }));
  });
});

describe("turnSetup and the model's context", () => {
  it('cuts the window to the context of a model its provider knows, and leaves it as configured otherwise', async () => {
    fx.userConfig('[provider]\ndefault = "first"\n\n[budgets]\nwindow_tokens = 100000\n');
    runtime = await openRuntime({ distribution: { name: 'test', plugins: [{ ...entry(providers), range: '^1.0.0' }] }, onNotice: () => undefined, env: fx.env });
    const scope = await runtime.scope(fx.workspace('ws'));
    expect((await turnSetup(scope, { model: 'small' })).budgets.windowTokens).toBe(32_000);
    expect((await turnSetup(scope, { model: 'huge' })).budgets.windowTokens).toBe(100_000);
    expect((await turnSetup(scope, { model: 'unknown' })).budgets.windowTokens).toBe(100_000);
  });

  it('cuts the default window too when the model is smaller', async () => {
    fx.userConfig('[provider]\ndefault = "first"\n');
    runtime = await openRuntime({ distribution: { name: 'test', plugins: [{ ...entry(providers), range: '^1.0.0' }] }, onNotice: () => undefined, env: fx.env });
    const scope = await runtime.scope(fx.workspace('ws'));
    expect((await turnSetup(scope, { model: 'small' })).budgets.windowTokens).toBe(32_000);
    expect((await turnSetup(scope, { model: 'unknown' })).budgets.windowTokens).toBeUndefined();
  });
});

describe('turnSetup and [memory] summary_model', () => {
  it("makes the summaries' model on the turn's provider, or on summary_provider, and none without summary_model", async () => {
    fx.userConfig('[provider]\ndefault = "first"\n\n[provider.first]\nmodel = "huge"\n\n[memory]\nsummary_model = "small"\n');
    runtime = await openRuntime({ distribution: { name: 'test', plugins: [{ ...entry(providers), range: '^1.0.0' }] }, onNotice: () => undefined, env: fx.env });
    const scope = await runtime.scope(fx.workspace('ws'));
    const setup = await turnSetup(scope);
    expect([setup.provider.model, setup.summaryProvider?.id, setup.summaryProvider?.model]).toEqual(['huge', 'first', 'small']);
    const other = await turnSetup({ ...scope, config: { ...scope.config, memory: { summary_model: 'tiny', summary_provider: 'second' } } as typeof scope.config });
    expect([other.summaryProvider?.id, other.summaryProvider?.model]).toEqual(['second', 'tiny']);
    expect((await turnSetup({ ...scope, config: { ...scope.config, memory: {} } as typeof scope.config })).summaryProvider).toBeUndefined();
    await expect(turnSetup({ ...scope, config: { ...scope.config, memory: { summary_model: 3 } } as typeof scope.config })).rejects.toMatchObject({ envelope: { code: 'CONFIG_INVALID', failed_parameter: 'memory.summary_model' } });
  });
});
