import { describe, expect, it, vi } from 'vitest';
import { EnvelopeError } from '@nodwyn/plugin-api';
import { createHost, distribution, entry, rejection, RecordingKernel, row, testPlugin } from './helpers.js';

const never = (): Promise<void> => new Promise(() => undefined);

describe('lifecycle', () => {
  it('reports an optional plugin that throws in register and runs the rest', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    const bad = testPlugin('bad', {}, events, {
      register: () => {
        throw new EnvelopeError({ category: 'PRECONDITION_FAILED', code: 'BAD_CONFIG', remediation: 'set bad.key' });
      },
    });
    await host.load(distribution(entry(bad, { optional: true }), entry(testPlugin('good', {}, events))));
    await host.start();
    expect(row(host, 'bad')).toMatchObject({ state: 'failed', optional: true, envelope: { code: 'BAD_CONFIG', plugin: 'bad', operation: 'plugin.register' } });
    expect(row(host, 'good').state).toBe('started');
    expect(events).toEqual(['register:bad', 'register:good', 'start:good']);
  });

  it('reports a failure against the plugin that failed even when it rethrows another plugin\'s envelope', async () => {
    const host = createHost(new RecordingKernel());
    const relay = testPlugin('relay', {}, [], {
      register: () => {
        throw new EnvelopeError({ category: 'NOT_FOUND', code: 'UPSTREAM_THING', plugin: 'someone-else', remediation: 'x' });
      },
    });
    await host.load(distribution(entry(relay, { optional: true })));
    expect(row(host, 'relay').envelope).toMatchObject({ code: 'UPSTREAM_THING', plugin: 'relay' });
  });

  it('reports an optional plugin that throws in start, runs the rest, and never stops it', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    const bad = testPlugin('bad', {}, events, {
      start: () => {
        throw new Error('port in use');
      },
    });
    await host.load(distribution(entry(testPlugin('first', {}, events)), entry(bad, { optional: true }), entry(testPlugin('last', {}, events))));
    await host.start();
    expect(row(host, 'bad')).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_START_FAILED', category: 'INTERNAL', plugin: 'bad' } });
    expect(row(host, 'bad').envelope?.remediation).toContain('port in use');
    expect(row(host, 'last').state).toBe('started');
    expect(await host.stopAll()).toEqual([]);
    expect(events).toEqual(['register:first', 'register:bad', 'register:last', 'start:first', 'start:bad', 'start:last', 'stop:last', 'stop:first']);
  });

  it('does not start a plugin whose dependency failed in start', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    const base = testPlugin('base', {}, events, {
      start: () => {
        throw new Error('down');
      },
    });
    await host.load(distribution(entry(testPlugin('user', { requires: ['plugin:base'] }, events), { optional: true }), entry(base, { optional: true })));
    await host.start();
    expect(events).toEqual(['register:base', 'register:user', 'start:base']);
    expect(row(host, 'user')).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_DEPENDENCY_FAILED', operation: 'plugin.start', plugin: 'user' } });
  });

  it('rejects start with the envelope of a required plugin that throws in start, after stopping what started', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    const bad = testPlugin('bad', {}, events, {
      start: () => {
        throw new Error('no database');
      },
    });
    await host.load(
      distribution(entry(testPlugin('one', {}, events)), entry(testPlugin('two', {}, events)), entry(bad), entry(testPlugin('never', {}, events))),
    );
    const envelope = await rejection(host.start());
    expect(envelope).toMatchObject({ code: 'PLUGIN_START_FAILED', plugin: 'bad' });
    expect(envelope).toEqual(row(host, 'bad').envelope);
    expect(events.slice(4)).toEqual(['start:one', 'start:two', 'start:bad', 'stop:two', 'stop:one']);
    expect(host.report().map((report) => [report.name, report.state])).toEqual([
      ['one', 'stopped'],
      ['two', 'stopped'],
      ['bad', 'failed'],
      ['never', 'stopped'],
    ]);
  });

  it('rejects load with the envelope of a required plugin that throws in register, registering nothing after it', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    const bad = testPlugin('bad', {}, events, {
      register: () => {
        throw new Error('cannot');
      },
    });
    const envelope = await rejection(host.load(distribution(entry(testPlugin('first', {}, events)), entry(bad), entry(testPlugin('later', {}, events)))));
    expect(envelope).toMatchObject({ code: 'PLUGIN_REGISTER_FAILED', plugin: 'bad' });
    expect(events).toEqual(['register:first', 'register:bad']);
    expect(row(host, 'later').state).toBe('loaded');
  });

  it('stops started plugins in reverse start order', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    await host.load(
      distribution(
        entry(testPlugin('top', { requires: ['plugin:base'] }, events)),
        entry(testPlugin('base', {}, events)),
        entry(testPlugin('side', {}, events)),
      ),
    );
    await host.start();
    await host.stopAll();
    expect(events.filter((event) => event.startsWith('stop:'))).toEqual(['stop:side', 'stop:top', 'stop:base']);
    expect(host.report().every((report) => report.state === 'stopped')).toBe(true);
  });

  it('reports stop failures instead of throwing them, and still stops the others', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    const bad = testPlugin('bad', {}, events, {
      stop: () => {
        throw new Error('stuck');
      },
    });
    await host.load(distribution(entry(testPlugin('a', {}, events)), entry(bad), entry(testPlugin('c', {}, events))));
    await host.start();
    const failures = await host.stopAll();
    expect(failures.map((failure) => [failure.code, failure.plugin])).toEqual([['PLUGIN_STOP_FAILED', 'bad']]);
    expect(events.filter((event) => event.startsWith('stop:'))).toEqual(['stop:c', 'stop:bad', 'stop:a']);
    expect(row(host, 'bad')).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_STOP_FAILED' } });
    expect(await host.stopAll()).toEqual([]);
  });

  it('fails a plugin whose register outlasts the timeout, and refuses what it contributes afterwards', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel, { timeoutMs: 20 });
    let late: unknown;
    const slow = testPlugin('slow', { provides: ['command:late'] }, [], {
      register: async (ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 60));
        try {
          ctx.commands.register({ name: 'late', description: 'too late', run: async () => 0 });
        } catch (error) {
          late = error;
        }
      },
    });
    await host.load(distribution(entry(slow, { optional: true })));
    expect(row(host, 'slow')).toMatchObject({ state: 'failed', envelope: { category: 'TIMEOUT', code: 'PLUGIN_START_TIMEOUT', plugin: 'slow', operation: 'plugin.register' } });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(late).toBeInstanceOf(EnvelopeError);
    expect((late as EnvelopeError).envelope.code).toBe('PLUGIN_REGISTRATION_CLOSED');
    expect(kernel.registrations).toEqual([]);
  });

  it('fails a plugin whose start outlasts the timeout', async () => {
    const host = createHost(new RecordingKernel(), { timeoutMs: 20 });
    await host.load(distribution(entry(testPlugin('hangs', {}, [], { start: never }), { optional: true }), entry(testPlugin('fine', {}, []))));
    await host.start();
    expect(row(host, 'hangs')).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_START_TIMEOUT', operation: 'plugin.start' } });
    expect(row(host, 'fine').state).toBe('started');
  });

  it('reports a stop that outlasts the timeout without hanging stopAll', async () => {
    const host = createHost(new RecordingKernel(), { timeoutMs: 20 });
    await host.load(distribution(entry(testPlugin('hangs', {}, [], { stop: never }))));
    await host.start();
    expect((await host.stopAll()).map((failure) => failure.code)).toEqual(['PLUGIN_STOP_TIMEOUT']);
  });

  it('refuses lifecycle calls out of order', async () => {
    const host = createHost(new RecordingKernel());
    expect(await rejection(host.start())).toMatchObject({ code: 'PLUGIN_HOST_PHASE', plugin: '@nodwyn/plugin-host', received_value: 'new' });
    await host.load(distribution(entry(testPlugin('a', {}, []))));
    expect(await rejection(host.load(distribution()))).toMatchObject({ code: 'PLUGIN_HOST_PHASE', received_value: 'loaded' });
  });

  it('does nothing but answer with an envelope when stopAll is called while load is running', async () => {
    let release = (): void => undefined;
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    const gate = testPlugin('gate', {}, events, { register: () => new Promise<void>((resolve) => (release = resolve)) });
    const loading = host.load(distribution(entry(gate)));
    await vi.waitFor(() => expect(events).toEqual(['register:gate']));
    expect((await host.stopAll()).map((failure) => [failure.code, failure.received_value])).toEqual([['PLUGIN_HOST_PHASE', 'busy']]);
    release();
    await loading;
    expect(row(host, 'gate').state).toBe('registered');
  });
});
