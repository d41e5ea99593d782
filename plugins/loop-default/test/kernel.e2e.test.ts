import { describe, expect, it } from 'vitest';
import { describeLoopConformance, echoPlugin, listProvider, startTestKernel } from '@nodwyn/testing';
import { loopDefaultPlugin } from '../src/index.js';

describeLoopConformance(loopDefaultPlugin, 'default');

describe('loop-default on the real kernel', () => {
  it('is the strategy a run gets by default, and runs two tool rounds before the answer', async () => {
    const t = await startTestKernel({ plugins: [loopDefaultPlugin, echoPlugin()] });
    try {
      const provider = listProvider([
        { toolCalls: [{ name: 'echo', args: { text: 'one' } }] },
        { toolCalls: [{ name: 'echo', args: { text: 'two' } }] },
        { text: 'done' },
      ]);
      const result = await t.run('go', { provider });
      expect(result).toMatchObject({ reason: 'answer', answer: 'done' });
      expect(t.events(result.session).find((e) => e.type === 'turn.started')?.payload.strategy).toBe('default');
      const results = t.events(result.session).filter((e) => e.type === 'tool.completed').map((e) => e.payload.content);
      expect(results).toEqual(['one', 'two']);
    } finally {
      await t.stop();
    }
  });

  it("ends the run with the floor's budget envelope instead of swallowing it", async () => {
    const t = await startTestKernel({ plugins: [loopDefaultPlugin, echoPlugin()] });
    try {
      const provider = listProvider([
        { toolCalls: [{ name: 'echo', args: { text: 'one' } }] },
        { toolCalls: [{ name: 'echo', args: { text: 'two' } }] },
        { text: 'never reached' },
      ]);
      const result = await t.run('go', { provider, budgets: { maxTurns: 2 } });
      expect(result.reason).toBe('budget');
      expect(result.envelope?.category).toBe('BUDGET_EXCEEDED');
    } finally {
      await t.stop();
    }
  });
});
