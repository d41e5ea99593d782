import { z } from '@nodwyn/plugin-api';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { echoPlugin, listProvider, startTestKernel, testPlugin } from '../src/index.js';

describe('startTestKernel', () => {
  it('loads plugins on the real host and kernel, applies calls and runs prompts', async () => {
    const t = await startTestKernel({ plugins: [echoPlugin()] });
    try {
      expect(t.host.report().map((p) => [p.name, p.state])).toEqual([['echo', 'started']]);
      expect(await t.apply('echo', { text: 'hi' })).toMatchObject({ ok: true, content: 'hi' });
      const loop = { id: 'once', description: 'one call', run: async (floor: import('@nodwyn/plugin-api').TurnFloor) => ({ answer: (await floor.callModel()).text }) };
      const result = await t.run('go', { provider: listProvider([{ text: 'answer' }]), loop });
      expect(result).toMatchObject({ reason: 'answer', answer: 'answer' });
      expect(t.events(result.session).map((e) => e.type)).toContain('turn.ended');
    } finally {
      await t.stop();
    }
  });

  it('grants confirmations only when asked to', async () => {
    const plugin = testPlugin('wiper', ['primitive:wipe'], (ctx) =>
      ctx.primitives.register({ name: 'wipe', description: 'Pretends to wipe.', input: z.object({}), tier: 'destructive', visibility: 'model', handler: () => ({ content: 'wiped' }) }),
    );
    const t = await startTestKernel({ plugins: [plugin] });
    try {
      expect((await t.apply('wipe', {})).ok).toBe(false);
      expect((await t.apply('wipe', {}, { confirm: true })).ok).toBe(true);
    } finally {
      await t.stop();
    }
  });

  it('removes its temp workspace on stop', async () => {
    const t = await startTestKernel();
    expect(existsSync(t.workspace)).toBe(true);
    await t.stop();
    expect(existsSync(t.workspace)).toBe(false);
  });

  it('rejects when a required plugin fails, naming it', async () => {
    const broken = testPlugin('broken', [], () => {
      throw new Error('no');
    });
    await expect(startTestKernel({ plugins: [broken] })).rejects.toMatchObject({ envelope: { plugin: 'broken' } });
  });
});
