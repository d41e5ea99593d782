import { describe, expect, it } from 'vitest';
import {
  API_VERSION,
  ContractCodes,
  createToken,
  definePlugin,
  EnvelopeError,
  KeychainToken,
  lookup,
  optional,
  type Dependencies,
  type PluginDefinition,
  type PluginInput,
} from '@nodwyn/plugin-api';
import { createHost, distribution, entry, RecordingKernel, rejection, row, testPlugin } from './helpers.js';

interface Clock {
  now(): number;
}
const ClockToken = createToken<Clock>('clock');
const TaintLikeToken = createToken<{ tags(): string[] }>('taint-like');

const clockPlugin = (events: string[] = []) =>
  testPlugin('clock', { provides: ['service:clock'] }, events, { register: (ctx) => ctx.services.provide(ClockToken, { now: () => 42 }) });
const taintPlugin = (events: string[] = []) =>
  testPlugin('taint', { provides: ['service:taint-like'] }, events, { register: (ctx) => ctx.services.provide(TaintLikeToken, { tags: () => ['aws'] }) });

function plugin<const D extends Dependencies>(name: string, input: Omit<PluginInput<D>, 'manifest'> & { manifest?: Partial<PluginInput<D>['manifest']> }): PluginDefinition<D> {
  return definePlugin<D>({ ...input, manifest: { name, version: '1.0.0', apiVersion: `^${API_VERSION}`, ...input.manifest } });
}

function thrown(action: () => unknown): unknown {
  try {
    return action();
  } catch (error) {
    if (error instanceof EnvelopeError) return error.envelope;
    throw error;
  }
}

describe('typed dependencies in the host', () => {
  it('hands register, start and stop the resolved deps, after the plugins that provide them', async () => {
    const events: string[] = [];
    const seen: unknown[] = [];
    const user = plugin('user', {
      deps: { clock: ClockToken, taint: optional(TaintLikeToken) },
      register(_ctx, { clock, taint }) {
        events.push('register:user');
        seen.push(clock.now(), taint?.tags());
      },
      start: (_ctx, deps) => void seen.push(`start ${deps.clock.now()}`),
      stop: (_ctx, deps) => void seen.push(`stop ${deps.taint?.tags().join()}`),
    });
    const host = createHost(new RecordingKernel());
    // Distribution order puts the user first; its deps move it after both providers.
    await host.load(distribution(entry(user), entry(clockPlugin(events)), entry(taintPlugin(events))));
    await host.start();
    await host.stopAll();
    expect(events).toEqual(['register:clock', 'register:taint', 'register:user', 'start:clock', 'start:taint', 'stop:taint', 'stop:clock']);
    expect(seen).toEqual([42, ['aws'], 'start 42', 'stop aws']);
    expect(user.manifest.requires).toEqual(['service:clock']);
  });

  it('gives undefined for an optional dependency nobody provides, and loads the plugin all the same', async () => {
    let taint: unknown = 'unset';
    const user = plugin('user', { deps: { taint: optional(TaintLikeToken) }, register: (_ctx, deps) => void (taint = deps.taint) });
    const host = createHost(new RecordingKernel());
    await host.load(distribution(entry(user)));
    expect(taint).toBeUndefined();
    expect(row(host, 'user').state).toBe('registered');
  });

  it('gives undefined for an optional dependency whose provider failed, instead of skipping the plugin', async () => {
    let taint: unknown = 'unset';
    const broken = testPlugin('taint', { provides: ['service:taint-like'] }, [], { register: () => { throw new Error('boom'); } });
    const user = plugin('user', { deps: { taint: optional(TaintLikeToken) }, register: (_ctx, deps) => void (taint = deps.taint) });
    const host = createHost(new RecordingKernel());
    await host.load(distribution(entry(broken, { optional: true }), entry(user)));
    expect(row(host, 'taint').state).toBe('failed');
    expect(row(host, 'user').state).toBe('registered');
    expect(taint).toBeUndefined();
  });

  it('fails a plugin whose required dependency nobody provides before it runs, naming the service', async () => {
    const user = plugin('user', { deps: { clock: ClockToken }, register: () => undefined });
    const envelope = await rejection(createHost(new RecordingKernel()).load(distribution(entry(user))));
    expect(envelope).toMatchObject({ code: 'PLUGIN_REQUIREMENT_MISSING', plugin: 'user', failed_parameter: '$.requires[0]' });
    expect(envelope.remediation).toContain('service:clock');
  });

  it('looks a lookup dependency up at each call, without ordering the plugin after its provider', async () => {
    const events: string[] = [];
    let get: (() => { tags(): string[] } | undefined) | undefined;
    const atRegister: unknown[] = [];
    const user = plugin('user', {
      deps: { taint: lookup(TaintLikeToken) },
      register(_ctx, deps) {
        events.push('register:user');
        get = deps.taint;
        atRegister.push(deps.taint());
      },
    });
    const host = createHost(new RecordingKernel());
    await host.load(distribution(entry(user), entry(taintPlugin(events))));
    expect(events).toEqual(['register:user', 'register:taint']);
    expect(atRegister).toEqual([undefined]);
    expect(get?.()?.tags()).toEqual(['aws']);
  });

  it('refuses services.get of a service the plugin declared nowhere, even when it is provided', async () => {
    const seen: Record<string, unknown> = {};
    const sneaky = testPlugin('sneaky', {}, [], { register: (ctx) => void (seen.undeclared = thrown(() => ctx.services.get(ClockToken))) });
    const declared = plugin('declared', { deps: { taint: optional(TaintLikeToken) }, register: (ctx) => void (seen.optional = ctx.services.get(TaintLikeToken).tags()) });
    const host = createHost(new RecordingKernel());
    await host.load(distribution(entry(clockPlugin()), entry(taintPlugin()), entry(sneaky), entry(declared)));
    expect(seen.undeclared).toMatchObject({ category: 'PERMISSION_DENIED', code: ContractCodes.SERVICE_UNDECLARED, plugin: 'sneaky', received_value: 'clock' });
    expect(seen.optional).toEqual(['aws']);
  });

  it('refuses at load a hand-written definition whose dependency needs a permission its manifest lacks', async () => {
    const handWritten = {
      manifest: { name: 'hand', version: '1.0.0', apiVersion: `^${API_VERSION}`, requires: [], provides: [], permissions: [] },
      deps: { keychain: KeychainToken },
      register: () => undefined,
    };
    const envelope = await rejection(createHost(new RecordingKernel()).load(distribution({ package: 'hand', range: '^1.0.0', load: () => handWritten as unknown as PluginDefinition })));
    expect(envelope).toMatchObject({ category: 'PERMISSION_DENIED', code: ContractCodes.PLUGIN_PERMISSION_UNDECLARED, plugin: 'hand', failed_parameter: '$.permissions', expected: 'secrets.reveal' });
    expect(envelope.remediation).toContain('deps.keychain');
  });

  it('orders a hand-written definition by its required deps as definePlugin would', async () => {
    const events: string[] = [];
    const handWritten = {
      manifest: { name: 'hand', version: '1.0.0', apiVersion: `^${API_VERSION}` },
      deps: { clock: ClockToken },
      register: (_ctx: unknown, deps: { clock: Clock }) => void events.push(`register:hand ${deps.clock.now()}`),
    };
    const host = createHost(new RecordingKernel());
    await host.load(distribution({ package: 'hand', range: '^1.0.0', load: () => handWritten as unknown as PluginDefinition }, entry(clockPlugin(events))));
    expect(events).toEqual(['register:clock', 'register:hand 42']);
  });
});
