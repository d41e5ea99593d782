import { describe, expect, it } from 'vitest';
import { createHost, distribution, entry, rejection, RecordingKernel, row, testPlugin } from './helpers.js';

describe('load order', () => {
  it('registers and starts plugins after the plugins they require, keeping distribution order otherwise', async () => {
    const events: string[] = [];
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    await host.load(
      distribution(
        entry(testPlugin('c', { requires: ['primitive:b_tool'] }, events)),
        entry(testPlugin('a', { provides: ['primitive:a_tool'] }, events)),
        entry(testPlugin('b', { provides: ['primitive:b_tool'], requires: ['plugin:a'] }, events)),
        entry(testPlugin('d', {}, events)),
      ),
    );
    await host.start();
    expect(events).toEqual(['register:a', 'register:b', 'register:c', 'register:d', 'start:a', 'start:b', 'start:c', 'start:d']);
    expect(kernel.registrations).toEqual(['a primitive:a_tool', 'b primitive:b_tool']);
  });

  it('orders a diamond so the shared base comes first and the top last', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    await host.load(
      distribution(
        entry(testPlugin('top', { requires: ['primitive:left', 'primitive:right'] }, events)),
        entry(testPlugin('right', { provides: ['primitive:right'], requires: ['primitive:base'] }, events)),
        entry(testPlugin('left', { provides: ['primitive:left'], requires: ['primitive:base'] }, events)),
        entry(testPlugin('base', { provides: ['primitive:base'] }, events)),
      ),
    );
    expect(events).toEqual(['register:base', 'register:right', 'register:left', 'register:top']);
  });

  it('fails every plugin of a requires cycle with an envelope naming the cycle, and skips what depends on it', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    await host.load(
      distribution(
        entry(testPlugin('x', { provides: ['primitive:x'], requires: ['primitive:y'] }, events), { optional: true }),
        entry(testPlugin('y', { provides: ['primitive:y'], requires: ['primitive:x'] }, events), { optional: true }),
        entry(testPlugin('after', { requires: ['plugin:x'] }, events), { optional: true }),
        entry(testPlugin('free', {}, events)),
      ),
    );
    expect(row(host, 'x')).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_REQUIRES_CYCLE', plugin: 'x', received_value: 'x → y → x' } });
    expect(row(host, 'y')).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_REQUIRES_CYCLE', plugin: 'y' } });
    expect(row(host, 'after')).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_DEPENDENCY_FAILED', plugin: 'after' } });
    expect(row(host, 'after').envelope?.remediation).toContain('x (PLUGIN_REQUIRES_CYCLE)');
    expect(events).toEqual(['register:free']);
  });

  it('refuses a required plugin in a cycle before any plugin registers', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    const load = host.load(
      distribution(
        entry(testPlugin('first', {}, events)),
        entry(testPlugin('x', { provides: ['primitive:x'], requires: ['primitive:x'] }, events)),
      ),
    );
    expect(await rejection(load)).toMatchObject({ code: 'PLUGIN_REQUIRES_CYCLE', plugin: 'x', received_value: 'x → x' });
    expect(events).toEqual([]);
  });

  it('fails a plugin whose requirement nothing provides, naming the requirement', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    await host.load(
      distribution(
        entry(testPlugin('needy', { requires: ['primitive:a_tool', 'service:nowhere'] }, events), { optional: true }),
        entry(testPlugin('a', { provides: ['primitive:a_tool'] }, events)),
      ),
    );
    expect(row(host, 'needy')).toMatchObject({
      state: 'failed',
      envelope: { code: 'PLUGIN_REQUIREMENT_MISSING', category: 'PRECONDITION_FAILED', plugin: 'needy', failed_parameter: '$.requires[1]' },
    });
    expect(row(host, 'needy').envelope?.remediation).toContain('service:nowhere');
    expect(events).toEqual(['register:a']);
  });

  it('rejects load when a required plugin misses a requirement', async () => {
    const host = createHost(new RecordingKernel());
    const envelope = await rejection(host.load(distribution(entry(testPlugin('needy', { requires: ['loop:gone'] }, [])))));
    expect(envelope).toMatchObject({ code: 'PLUGIN_REQUIREMENT_MISSING', plugin: 'needy' });
  });

  it('counts a primitive the kernel already has as provided', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel(['session.create']));
    await host.load(distribution(entry(testPlugin('uses-builtin', { requires: ['primitive:session.create'] }, events))));
    expect(row(host, 'uses-builtin').state).toBe('registered');
  });

  it('skips a plugin whose only provider failed in register, naming that provider', async () => {
    const events: string[] = [];
    const host = createHost(new RecordingKernel());
    const broken = testPlugin('broken', { provides: ['primitive:thing'] }, events, {
      register: () => {
        throw new Error('boom');
      },
    });
    await host.load(
      distribution(entry(testPlugin('user', { requires: ['primitive:thing'] }, events), { optional: true }), entry(broken, { optional: true })),
    );
    expect(events).toEqual(['register:broken']);
    expect(row(host, 'user')).toMatchObject({ state: 'failed', envelope: { code: 'PLUGIN_DEPENDENCY_FAILED', plugin: 'user', received_value: 'primitive:thing' } });
    expect(row(host, 'user').envelope?.remediation).toContain('broken (PLUGIN_REGISTER_FAILED)');
  });
});
