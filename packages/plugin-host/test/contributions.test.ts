import { describe, expect, it } from 'vitest';
import { createToken, EnvelopeError, optional, type PluginContext } from '@nodwyn/plugin-api';
import { z as zod3 } from 'zod/v3';
import { command, createHost, distribution, entry, primitive, RecordingKernel, row, testPlugin } from './helpers.js';

function thrown(action: () => unknown): EnvelopeError['envelope'] {
  try {
    action();
  } catch (error) {
    if (error instanceof EnvelopeError) return error.envelope;
    throw error;
  }
  throw new Error('expected the action to throw an EnvelopeError');
}

describe('contributions and context', () => {
  it('hands every kind of contribution to the kernel under the plugin as owner', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    const all = testPlugin('all', { provides: ['primitive:p_one', 'provider:prov', 'loop:lp', 'guard-stage:gs', 'command:cmd'] }, [], {
      register: (ctx) => {
        ctx.primitives.register(primitive('p_one'));
        ctx.providers.register({ id: 'prov', description: 'p', create: () => ({ id: 'prov', stream: async function* () {} }) });
        ctx.loops.register({ id: 'lp', description: 'l', run: async () => ({ answer: '' }) });
        ctx.guard.addStage({ name: 'gs', slot: 'policy', check: () => ({ kind: 'allow' }) });
        ctx.commands.register(command('cmd'));
      },
    });
    await host.load(distribution(entry(all)));
    expect(kernel.registrations).toEqual(['all primitive:p_one', 'all provider:prov', 'all loop:lp', 'all guard-stage:gs', 'all command:cmd']);
  });

  it('fails a plugin that registers less than it provides, naming what is missing', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    const short = testPlugin('short', { provides: ['primitive:one', 'command:two'] }, [], { register: (ctx) => ctx.primitives.register(primitive('one')) });
    await host.load(distribution(entry(short, { optional: true })));
    const envelope = row(host, 'short').envelope;
    expect(envelope).toMatchObject({ code: 'PLUGIN_PROVIDES_MISMATCH', plugin: 'short', failed_parameter: '$.provides' });
    expect(envelope?.remediation).toContain('declares but did not register command:two');
    expect(envelope?.remediation).not.toContain('registered but does not declare');
    expect(kernel.registrations).toEqual([]);
  });

  it('fails a plugin that registers more than it provides, naming the extra', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    const greedy = testPlugin('greedy', { provides: ['primitive:one', 'plugin:greedy'] }, [], {
      register: (ctx) => {
        ctx.primitives.register(primitive('one'));
        ctx.commands.register(command('sneaky'));
      },
    });
    await host.load(distribution(entry(greedy, { optional: true })));
    const envelope = row(host, 'greedy').envelope;
    expect(envelope?.code).toBe('PLUGIN_PROVIDES_MISMATCH');
    expect(envelope?.remediation).toContain('registered but does not declare command:sneaky');
    expect(envelope?.remediation).not.toContain('did not register');
    expect(kernel.registrations).toEqual([]);
  });

  it('applies none of the contributions of a plugin that throws after contributing', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    const token = createToken<string>('half.service');
    const half = testPlugin('half', { provides: ['primitive:first', 'service:half.service'] }, [], {
      register: (ctx) => {
        ctx.primitives.register(primitive('first'));
        ctx.services.provide(token, 'value');
        throw new Error('second step failed');
      },
    });
    let probe: PluginContext | undefined;
    const later = testPlugin('later', {}, [], { deps: { half: optional(token) }, register: (ctx) => void (probe = ctx) });
    await host.load(distribution(entry(half, { optional: true }), entry(later)));
    expect(row(host, 'half').state).toBe('failed');
    expect(kernel.registrations).toEqual([]);
    expect(kernel.listPrimitives().map((info) => info.name)).toEqual([]);
    expect(thrown(() => probe?.services.get(token))).toMatchObject({ code: 'SERVICE_NOT_FOUND', plugin: 'later' });
  });

  it('shares a provided service with plugins that load after it, and lets the provider use its own at once', async () => {
    const token = createToken<{ greet(name: string): string }>('greeter');
    const seen: string[] = [];
    const provider = testPlugin('provider', { provides: ['service:greeter'] }, [], {
      register: (ctx) => {
        ctx.services.provide(token, { greet: (name) => `hello ${name}` });
        seen.push(ctx.services.get(token).greet('self'));
      },
    });
    const consumer = testPlugin('consumer', { requires: ['service:greeter'] }, [], {
      register: (ctx) => void seen.push(ctx.services.get(token).greet('consumer')),
      start: (ctx) => void seen.push(ctx.services.get(createToken<{ greet(name: string): string }>('greeter')).greet('start')),
    });
    const host = createHost(new RecordingKernel());
    await host.load(distribution(entry(consumer), entry(provider)));
    await host.start();
    expect(seen).toEqual(['hello self', 'hello consumer', 'hello start']);
  });

  it('refuses a second plugin providing a service or contribution another already provides', async () => {
    const token = createToken<number>('counter');
    const make = (name: string) =>
      testPlugin(name, { provides: ['service:counter', 'command:count'] }, [], {
        register: (ctx) => {
          ctx.services.provide(token, 1);
          ctx.commands.register(command('count'));
        },
      });
    const host = createHost(new RecordingKernel());
    await host.load(distribution(entry(make('first')), entry(make('second'), { optional: true })));
    expect(row(host, 'second').envelope).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_DUPLICATE', plugin: 'second', received_value: 'service:counter' });
    expect(row(host, 'second').envelope?.remediation).toContain('first');
  });

  it('refuses a primitive name the kernel already has unless the plugin replaces it', async () => {
    const kernel = new RecordingKernel(['read_file']);
    const host = createHost(kernel);
    await host.load(
      distribution(
        entry(testPlugin('clash', { provides: ['primitive:read_file'] }, []), { optional: true }),
        entry(testPlugin('replacer', { provides: ['primitive:read_file'] }, [], { register: (ctx) => ctx.primitives.register(primitive('read_file'), { replace: true }) })),
      ),
    );
    expect(row(host, 'clash').envelope).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_DUPLICATE', received_value: 'primitive:read_file' });
    expect(kernel.primitives.get('read_file')?.owner).toBe('replacer');
  });

  it('refuses a primitive whose name does not fit its visibility', async () => {
    const host = createHost(new RecordingKernel());
    const bad = testPlugin('bad-name', { provides: ['primitive:read-file'] }, [], { register: (ctx) => ctx.primitives.register(primitive('read-file')) });
    await host.load(distribution(entry(bad, { optional: true })));
    expect(row(host, 'bad-name').envelope).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_INVALID', received_value: 'read-file' });
  });

  it('throws SERVICE_NOT_FOUND for a service nobody provides', async () => {
    let envelope: EnvelopeError['envelope'] | undefined;
    const host = createHost(new RecordingKernel());
    await host.load(distribution(entry(testPlugin('asker', {}, [], { deps: { absent: optional(createToken('absent')) }, register: (ctx) => void (envelope = thrown(() => ctx.services.get(createToken('absent')))) }))));
    expect(envelope).toMatchObject({ category: 'NOT_FOUND', code: 'SERVICE_NOT_FOUND', plugin: 'asker', received_value: 'absent' });
  });

  it('gives the log only to plugins that declare log.read', async () => {
    const kernel = new RecordingKernel();
    const reads: unknown[] = [];
    const host = createHost(kernel);
    const reader = testPlugin('reader', { permissions: ['log.read'] }, [], { register: (ctx) => void reads.push(ctx.log) });
    const snooper = testPlugin('snooper', {}, [], { register: (ctx) => void reads.push(thrown(() => ctx.log)) });
    await host.load(distribution(entry(reader), entry(snooper)));
    expect(reads[0]).toBe(kernel.log);
    expect(reads[1]).toMatchObject({ category: 'PERMISSION_DENIED', code: 'PLUGIN_PERMISSION_UNDECLARED', plugin: 'snooper' });
  });

  it('hands a permission-guarded service only to plugins that declare the permission', async () => {
    const token = createToken<string>('vault', { permission: 'secrets.reveal' });
    const got: unknown[] = [];
    const host = createHost(new RecordingKernel());
    const vault = testPlugin('vault', { provides: ['service:vault'] }, [], { register: (ctx) => ctx.services.provide(token, 'the-value') });
    const trusted = testPlugin('trusted', { requires: ['service:vault'], permissions: ['secrets.reveal'] }, [], { register: (ctx) => void got.push(ctx.services.get(token)) });
    const other = testPlugin('other', { requires: ['service:vault'] }, [], { register: (ctx) => void got.push(thrown(() => ctx.services.get(token))) });
    await host.load(distribution(entry(vault), entry(trusted), entry(other)));
    expect(got[0]).toBe('the-value');
    expect(got[1]).toMatchObject({ category: 'PERMISSION_DENIED', code: 'PLUGIN_PERMISSION_UNDECLARED', plugin: 'other', expected: 'secrets.reveal' });
  });

  it('appends a plugin\'s events through the kernel under its own name', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    await host.load(distribution(entry(testPlugin('auditor', {}, [], { register: (ctx) => ctx.events.append('s1', 'audit.noted', { ok: true }) }))));
    expect(kernel.registrations).toContain('auditor event:s1:audit.noted');
  });

  it('gives each plugin its config section and the whole settings, deep-frozen', async () => {
    const settings = { theme: 'dark', plugins: { configured: { depth: 3, nested: { on: true } } } };
    const contexts: PluginContext[] = [];
    const host = createHost(new RecordingKernel(), { settings, workspace: '/ws', dataDir: '/dd' });
    const capture = (name: string) => testPlugin(name, {}, [], { register: (ctx) => void contexts.push(ctx) });
    await host.load(distribution(entry(capture('configured')), entry(capture('bare'))));
    const [configured, bare] = contexts;
    expect(configured?.config).toEqual({ depth: 3, nested: { on: true } });
    expect(bare?.config).toEqual({});
    expect(configured?.settings).toEqual(settings);
    expect(Object.isFrozen(configured?.config.nested)).toBe(true);
    expect(Object.isFrozen(configured?.settings)).toBe(true);
    expect(Object.isFrozen(settings)).toBe(false);
    expect([configured?.workspace, configured?.dataDir, configured?.plugin]).toEqual(['/ws', '/dd', { name: 'configured', version: '1.0.0' }]);
  });

  it('gives each plugin its own container, disposed when the plugin fails or the host stops', async () => {
    const token = createToken<string>('shared');
    const contexts = new Map<string, PluginContext>();
    const capture = (name: string, hooks: { start?: () => void } = {}) =>
      testPlugin(name, {}, [], { deps: { shared: optional(token) }, register: (ctx) => void contexts.set(name, ctx), ...hooks });
    const provider = testPlugin('provider', { provides: ['service:shared'] }, [], { register: (ctx) => ctx.services.provide(token, 'ok') });
    const failing = capture('failing', {
      start: () => {
        throw new Error('nope');
      },
    });
    const host = createHost(new RecordingKernel());
    await host.load(distribution(entry(provider), entry(failing, { optional: true }), entry(capture('alive'))));
    await host.start();
    expect(thrown(() => contexts.get('failing')?.services.get(token))).toMatchObject({ code: 'PLUGIN_UNLOADED', plugin: 'failing' });
    expect(contexts.get('alive')?.services.get(token)).toBe('ok');
    await host.stopAll();
    expect(thrown(() => contexts.get('alive')?.services.get(token))).toMatchObject({ code: 'PLUGIN_UNLOADED', plugin: 'alive' });
  });

  it('keeps the host\'s own root registrations out of reach of a forged token', async () => {
    let envelope: EnvelopeError['envelope'] | undefined;
    const host = createHost(new RecordingKernel());
    const forger = testPlugin('forger', {}, [], {
      deps: { port: optional(createToken('nodwyn.plugin-host.kernel-port')) },
      register: (ctx) => void (envelope = thrown(() => ctx.services.get(createToken('nodwyn.plugin-host.kernel-port')))),
    });
    await host.load(distribution(entry(forger)));
    expect(envelope?.code).toBe('SERVICE_NOT_FOUND');
  });

  it('never exposes the container or kernel on the context', async () => {
    let keys: string[] = [];
    const host = createHost(new RecordingKernel());
    await host.load(distribution(entry(testPlugin('look', {}, [], { register: (ctx) => void (keys = Object.keys(ctx)) }))));
    expect(keys.sort()).toEqual(['agentCommands', 'calls', 'commands', 'config', 'configDir', 'context', 'dataDir', 'events', 'frontends', 'guard', 'log', 'loops', 'models', 'plugin', 'primitives', 'providers', 'services', 'settings', 'store', 'trust', 'workspace']);
  });

  it('lets the composing app read a provided service until the host stops', async () => {
    const token = createToken<string>('test.sender');
    const host = createHost(new RecordingKernel());
    const provider = testPlugin('giver', { provides: ['service:test.sender'] }, [], { register: (ctx) => ctx.services.provide(token, 'the sender') });
    await host.load(distribution(entry(provider)));
    await host.start();
    expect(host.service(token)).toBe('the sender');
    expect(host.service(createToken<string>('test.absent'))).toBeUndefined();
    await host.stopAll();
    expect(host.service(token)).toBeUndefined();
  });

  it("forwards a plugin's own model call to the kernel under its name", async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    const caller = testPlugin('asker', {}, [], {
      start: async (ctx) => void (await ctx.models.complete({ session: 's', provider: 'scripted', options: {}, messages: [], signal: new AbortController().signal })),
    });
    await host.load(distribution(entry(caller)));
    await host.start();
    expect(kernel.registrations).toContain('asker model:scripted');
  });

  it('refuses a primitive whose input schema is a zod 3 one, naming zod 4 as the fix', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    const old = testPlugin('old-zod', { provides: ['primitive:old_tool'] }, [], {
      register: (ctx) => ctx.primitives.register({ ...primitive('old_tool'), input: zod3.object({ q: zod3.string() }) as never }),
    });
    await host.load(distribution(entry(old, { optional: true })));
    expect(row(host, 'old-zod')).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_SCHEMA_ZOD3', failed_parameter: 'old_tool.input', plugin: 'old-zod' } });
    expect(row(host, 'old-zod').envelope?.remediation).toContain('uses zod 3 for the input of old_tool; nodwyn needs zod 4 (`zod@^4`)');
    expect(kernel.registrations).toEqual([]);
  });
});
