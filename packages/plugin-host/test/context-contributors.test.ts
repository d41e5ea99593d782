import { describe, expect, it } from 'vitest';
import type { ContextContributor } from '@nodwyn/plugin-api';
import { createHost, distribution, entry, RecordingKernel, rejection, row, testPlugin } from './helpers.js';

function contributor(id: string): ContextContributor {
  return { id, description: `the ${id} parts of the brief`, parts: () => [{ id: `${id}.part`, source: id, text: `from ${id}` }] };
}

describe('context contributors', () => {
  it('hands a contributor its manifest provides to the kernel, with its owner', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    const env = testPlugin('env', { provides: ['context:environment'] }, [], { register: (ctx) => ctx.context.register(contributor('environment')) });
    await host.load(distribution(entry(env)));
    expect(kernel.registrations).toEqual(['env context:environment']);
  });

  it('fails a plugin whose contributor its manifest does not provide', async () => {
    const kernel = new RecordingKernel();
    const host = createHost(kernel);
    const sneaky = testPlugin('sneaky', { provides: [] }, [], { register: (ctx) => ctx.context.register(contributor('sneaky')) });
    await host.load(distribution(entry(sneaky, { optional: true })));
    expect(row(host, 'sneaky').envelope?.code).toBe('PLUGIN_PROVIDES_MISMATCH');
    expect(kernel.registrations).toEqual([]);
  });

  it('refuses a badly named contributor and one without a parts function', async () => {
    const badName = testPlugin('bad-name', { provides: ['context:env.1'] }, [], { register: (ctx) => ctx.context.register(contributor('env.1')) });
    expect(await rejection(createHost(new RecordingKernel()).load(distribution(entry(badName))))).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_INVALID', failed_parameter: 'context.id' });
    const noParts = testPlugin('no-parts', { provides: ['context:x'] }, [], {
      register: (ctx) => ctx.context.register({ id: 'x', description: 'no parts' } as unknown as ContextContributor),
    });
    expect(await rejection(createHost(new RecordingKernel()).load(distribution(entry(noParts))))).toMatchObject({ code: 'PLUGIN_CONTRIBUTION_INVALID', failed_parameter: 'context' });
  });

  it("tells each plugin the workspace's trust and the config folder", async () => {
    const seen: unknown[] = [];
    const probe = testPlugin('probe', { provides: [] }, [], { register: (ctx) => void seen.push([ctx.trust, ctx.configDir]) });
    await createHost(new RecordingKernel(), { trust: 'trusted', configDir: '/config/dir' }).load(distribution(entry(probe)));
    await createHost(new RecordingKernel()).load(distribution(entry(probe)));
    expect(seen).toEqual([['trusted', '/config/dir'], ['none', '/data/dir']]);
  });
});
