import { describe, expect, it } from 'vitest';
import { describeLoopConformance, echoPlugin, listProvider, publishPlugin, sequenceProvider, startTestKernel } from '@nodwyn/testing';
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

describe('the plan flow of loop-default on the real kernel, without a judge', () => {
  const publish = { name: 'publish', args: { version: 'v1' } };

  it('denies an irreversible call PLAN_REQUIRED even with --yes, then runs it once the person approved the plan', async () => {
    const published: string[] = [];
    const t = await startTestKernel({ plugins: [loopDefaultPlugin, publishPlugin(published)] });
    try {
      const provider = sequenceProvider([{ toolCalls: [publish] }, { text: '1. publish v1' }, { toolCalls: [publish] }, { text: 'Published v1.' }]);
      const result = await t.run('release v1', { provider, confirm: true });
      expect(result).toMatchObject({ reason: 'answer', answer: 'Published v1.' });
      const events = t.events(result.session);
      const outcomes = events.filter((e) => e.type === 'tool.denied' || e.type === 'tool.completed').map((e) => [e.type, (e.payload.envelope as { code?: string } | undefined)?.code]);
      expect(outcomes).toEqual([['tool.denied', 'PLAN_REQUIRED'], ['tool.completed', undefined]]);
      expect(events.find((e) => e.type === 'plan.approved')?.payload).toEqual({ plan: '1. publish v1', by: 'person', round: 1 });
      expect(published).toEqual(['v1']);
      expect(provider.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user', text: expect.stringContaining('A plan is required') });
    } finally {
      await t.stop();
    }
  });

  it('ends the turn PLAN_REJECTED when nobody can approve the plan, and never runs the call', async () => {
    const published: string[] = [];
    const t = await startTestKernel({ plugins: [loopDefaultPlugin, publishPlugin(published)] });
    try {
      const provider = sequenceProvider([{ toolCalls: [publish] }, { text: '1. publish v1' }]);
      const result = await t.run('release v1', { provider });
      expect(result).toMatchObject({ reason: 'failed', envelope: { category: 'PRECONDITION_FAILED', code: 'PLAN_REJECTED' } });
      expect(t.events(result.session).filter((e) => e.type === 'plan.revise').map((e) => e.payload.by)).toEqual(['person']);
      expect(published).toEqual([]);
    } finally {
      await t.stop();
    }
  });
});
