import { describe, expect, it } from 'vitest';
import type { Frontend } from '@nodwyn/plugin-api';
import { createHost, distribution, entry, RecordingKernel, rejection, row, testPlugin } from './helpers.js';

function frontend(id: string): Frontend {
  return { id, description: `the ${id} front end`, start: async () => 0 };
}

describe('front ends', () => {
  it('keeps the front ends of started plugins, with their owner, and never hands them to the kernel', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    const tui = testPlugin('tui', { provides: ['frontend:tui'] }, [], { register: (ctx) => ctx.frontends.register(frontend('tui')) });
    const web = testPlugin('web', { provides: ['frontend:web'] }, [], { register: (ctx) => ctx.frontends.register(frontend('web')) });
    await host.load(distribution(entry(tui), entry(web)));
    expect(host.frontends()).toEqual([]);
    await host.start();
    expect(host.frontends()).toEqual([
      { id: 'tui', description: 'the tui front end', owner: 'tui' },
      { id: 'web', description: 'the web front end', owner: 'web' },
    ]);
    expect(host.frontend('web')?.description).toBe('the web front end');
    expect(host.frontend('desktop')).toBeUndefined();
    expect(kernel.registrations).toEqual([]);
    await host.stopAll();
    expect([host.frontends(), host.frontend('tui')]).toEqual([[], undefined]);
  });

  it('fails a plugin whose front end its manifest does not provide', async () => {
    const host = createHost(new RecordingKernel());
    const sneaky = testPlugin('sneaky', { provides: [] }, [], { register: (ctx) => ctx.frontends.register(frontend('tui')) });
    await host.load(distribution(entry(sneaky, { optional: true })));
    await host.start();
    expect(row(host, 'sneaky').envelope?.code).toBe('PLUGIN_PROVIDES_MISMATCH');
    expect(host.frontend('tui')).toBeUndefined();
  });

  it('refuses a second plugin registering a front end id already taken', async () => {
    const host = createHost(new RecordingKernel());
    const first = testPlugin('first', { provides: ['frontend:tui'] }, [], { register: (ctx) => ctx.frontends.register(frontend('tui')) });
    const second = testPlugin('second', { provides: ['frontend:tui'] }, [], { register: (ctx) => ctx.frontends.register(frontend('tui')) });
    await host.load(distribution(entry(first), entry(second, { optional: true })));
    await host.start();
    expect(row(host, 'second').envelope).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_DUPLICATE', received_value: 'frontend:tui' });
    expect(host.frontends().map((f) => f.owner)).toEqual(['first']);
  });

  it('refuses a front end without a start function, naming the shape it needs', async () => {
    const host = createHost(new RecordingKernel());
    const broken = testPlugin('broken', { provides: ['frontend:tui'] }, [], {
      register: (ctx) => ctx.frontends.register({ id: 'tui', description: 'no start' } as unknown as Frontend),
    });
    const envelope = await rejection(host.load(distribution(entry(broken))));
    expect(envelope).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_INVALID', plugin: 'broken', failed_parameter: 'frontend' });
  });

  it('does not offer the front end of a plugin that failed in start', async () => {
    const host = createHost(new RecordingKernel());
    const failing = testPlugin('failing', { provides: ['frontend:tui'] }, [], {
      register: (ctx) => ctx.frontends.register(frontend('tui')),
      start: () => {
        throw new Error('no terminal');
      },
    });
    await host.load(distribution(entry(failing, { optional: true })));
    await host.start();
    expect(row(host, 'failing').state).toBe('failed');
    expect(host.frontend('tui')).toBeUndefined();
  });
});
