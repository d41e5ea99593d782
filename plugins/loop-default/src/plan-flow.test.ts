import { describe, expect, it } from 'vitest';
import { answer, FakeJudge, RecordingFloor, withCalls } from '../test/recording-floor.js';
import { MAX_DRAFTS, planFlow } from './plan-flow.js';

describe('planFlow', () => {
  it('revises on the judge feedback and stops as soon as a draft is approved', async () => {
    const judge = new FakeJudge([0.2, 0.5, 0.9]);
    const floor = new RecordingFloor([answer('draft 1'), answer('draft 2'), answer('draft 3')]);
    await planFlow(floor, judge, 'the ask', 'why');
    expect(floor.outcomes.map((o) => [o.plan, o.round, o.approved, o.score, o.feedback])).toEqual([
      ['draft 1', 1, false, 0.2, 'revise draft 1'],
      ['draft 2', 2, false, 0.5, 'revise draft 2'],
      ['draft 3', 3, true, 0.9, undefined],
    ]);
    expect(judge.reviews.map((r) => r.round)).toEqual([1, 2, 3]);
  });

  it('stops after the first draft and three revisions with PLAN_NOT_APPROVED', async () => {
    const judge = new FakeJudge([0.1, 0.1, 0.1, 0.1, 0.99]);
    const floor = new RecordingFloor([answer('d1'), answer('d2'), answer('d3'), answer('d4'), answer('never asked for')]);
    const failure = await planFlow(floor, judge, 'the ask', 'why').catch((error: unknown) => error);
    expect(failure).toMatchObject({ envelope: { category: 'PRECONDITION_FAILED', code: 'PLAN_NOT_APPROVED', remediation: expect.stringContaining('Rephrase') } });
    expect(MAX_DRAFTS).toBe(4);
    expect(floor.calls.filter((c) => c === 'callModel')).toHaveLength(4);
    expect(floor.outcomes.map((o) => o.round)).toEqual([1, 2, 3, 4]);
  });

  it('runs the tool calls of a draft that makes them, each once, and counts the round', async () => {
    const judge = new FakeJudge([0.9]);
    const floor = new RecordingFloor([withCalls('look'), answer('1. then act')]);
    await planFlow(floor, judge, 'the ask', 'why');
    expect(floor.calls).toEqual(['plans.request(why)', 'callModel', 'runToolCalls(look)', 'callModel', 'window', 'plans.record(judge, 2, true)']);
  });

  it('counts tool-call drafts against the limit too', async () => {
    const judge = new FakeJudge([]);
    const floor = new RecordingFloor([withCalls('a'), withCalls('b'), withCalls('c'), withCalls('d')]);
    await expect(planFlow(floor, judge, 'the ask', 'why')).rejects.toMatchObject({ envelope: { code: 'PLAN_NOT_APPROVED' } });
    expect(floor.ran).toHaveLength(4);
  });
});
