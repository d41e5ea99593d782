import { describe, expect, it } from 'vitest';
import { EnvelopeError } from '@nodwyn/plugin-api';
import { answer, FakeJudge, judgeFailure, RecordingFloor, withCalls } from '../test/recording-floor.js';
import { createDefaultLoop, defaultLoop } from './default-loop.js';

const budgetStop = () =>
  new EnvelopeError({ category: 'BUDGET_EXCEEDED', code: 'BUDGET_TOOL_CALLS', remediation: 'Raise the tool-call budget.' });
const PLAN_REQUIRED = 'plans.request(an irreversible tool call needs an approved plan)';
const GATE = 'plans.request(the plan gate asked for a plan)';

describe('defaultLoop', () => {
  it('returns the text of the first message when it has no tool calls, running no tools', async () => {
    const floor = new RecordingFloor([answer('All done.')]);
    expect(await defaultLoop.run(floor)).toEqual({ answer: 'All done.' });
    expect(floor.calls).toEqual(['window', 'callModel']);
  });

  it('logs every contributed part of the brief before the first model call, and each id only once a session', async () => {
    const contributed = [
      { id: 'agent.role', source: 'nodwyn', text: 'You are a coding agent.' },
      { id: 'workspace.environment', source: 'environment', text: 'Workspace: /w' },
    ];
    const floor = new RecordingFloor([answer('One.'), answer('Two.')], { contributed });
    await defaultLoop.run(floor);
    await defaultLoop.run(floor);
    expect(floor.brief.map((p) => p.id)).toEqual(['agent.role', 'workspace.environment']);
    expect(floor.briefAtCalls).toEqual([2, 2]);
  });

  it('runs each message with tool calls before calling the model again, then returns the answer', async () => {
    const first = withCalls('a', 'b');
    const second = withCalls('c');
    const floor = new RecordingFloor([first, second, answer('Fixed.')]);
    expect(await defaultLoop.run(floor)).toEqual({ answer: 'Fixed.' });
    expect(floor.calls).toEqual(['window', 'callModel', 'runToolCalls(a,b)', 'callModel', 'runToolCalls(c)', 'callModel']);
    expect(floor.ran[0]).toBe(first);
    expect(floor.ran[1]).toBe(second);
  });

  it('lets a stop error from callModel propagate unchanged and makes no further call', async () => {
    const stop = budgetStop();
    const floor = new RecordingFloor([withCalls('a'), stop, answer('never reached')]);
    await expect(defaultLoop.run(floor)).rejects.toBe(stop);
    expect(floor.calls).toEqual(['window', 'callModel', 'runToolCalls(a)', 'callModel']);
  });

  it('lets a stop error from runToolCalls propagate unchanged and does not call the model again', async () => {
    const stop = budgetStop();
    const floor = new RecordingFloor([withCalls('a'), answer('never reached')], { toolFailure: stop });
    await expect(defaultLoop.run(floor)).rejects.toBe(stop);
    expect(floor.calls).toEqual(['window', 'callModel', 'runToolCalls(a)']);
  });

  it('on PLAN_REQUIRED without a judge asks for a plan, has the person approve it, and goes on', async () => {
    const floor = new RecordingFloor([withCalls('p'), answer('1. publish'), withCalls('q'), answer('Published.')], { toolAnswers: { p: 'PLAN_REQUIRED' }, person: true });
    expect(await defaultLoop.run(floor)).toEqual({ answer: 'Published.' });
    expect(floor.calls).toEqual(['window', 'callModel', 'runToolCalls(p)', PLAN_REQUIRED, 'callModel', 'plans.confirm', 'plans.record(person, 1, true)', 'callModel', 'runToolCalls(q)', 'callModel']);
    expect(floor.outcomes).toEqual([{ plan: '1. publish', approved: true, by: 'person', round: 1 }]);
  });

  it('ends the turn with PLAN_REJECTED when the person does not approve the plan', async () => {
    const floor = new RecordingFloor([withCalls('p'), answer('1. publish')], { toolAnswers: { p: 'PLAN_REQUIRED' }, person: false });
    await expect(defaultLoop.run(floor)).rejects.toMatchObject({ envelope: { category: 'PRECONDITION_FAILED', code: 'PLAN_REJECTED' } });
    expect(floor.outcomes).toEqual([{ plan: '1. publish', approved: false, by: 'person', round: 1 }]);
  });

  it('ignores a denial other than PLAN_REQUIRED: the model sees it and goes on', async () => {
    const floor = new RecordingFloor([withCalls('x'), answer('ok')], { toolAnswers: { x: 'CONFIRMATION_REQUIRED' } });
    expect(await defaultLoop.run(floor)).toEqual({ answer: 'ok' });
    expect(floor.calls.filter((c) => c.startsWith('plans.'))).toEqual([]);
  });
});

describe('createDefaultLoop with a judge', () => {
  it('in plan mode asks the gate with the latest user message, and plans first when it says so', async () => {
    const judge = new FakeJudge([0.9], [true], { planMode: true });
    const window = [{ role: 'user' as const, text: 'old ask' }, { role: 'assistant' as const, text: 'old answer', toolCalls: [] }, { role: 'user' as const, text: 'delete the branch' }];
    const floor = new RecordingFloor([answer('1. delete it'), answer('Done.')], { window });
    expect(await createDefaultLoop(() => judge).run(floor)).toEqual({ answer: 'Done.' });
    expect(judge.asks).toEqual(['delete the branch']);
    expect(floor.calls).toEqual(['window', GATE, 'callModel', 'window', 'plans.record(judge, 1, true)', 'callModel']);
    expect(judge.reviews[0]).toMatchObject({ session: 'session-under-test', ask: 'delete the branch', plan: '1. delete it', round: 1, window });
    expect(floor.outcomes).toEqual([{ plan: '1. delete it', approved: true, by: 'judge', round: 1, score: 0.9 }]);
  });

  it('acts at once when the gate says no plan is needed', async () => {
    const judge = new FakeJudge([], [false], { planMode: true });
    const floor = new RecordingFloor([answer('Hi.')]);
    expect(await createDefaultLoop(() => judge).run(floor)).toEqual({ answer: 'Hi.' });
    expect(floor.calls).toEqual(['window', 'callModel']);
  });

  it('treats a failing gate as "a plan is needed" (fails closed)', async () => {
    const judge = new FakeJudge([0.8], [judgeFailure()], { planMode: true });
    const floor = new RecordingFloor([answer('1. step'), answer('Done.')]);
    expect(await createDefaultLoop(() => judge).run(floor)).toEqual({ answer: 'Done.' });
    expect(floor.calls[1]).toBe(GATE);
  });

  it('does not ask the gate outside plan mode, or when the judge may not see content', async () => {
    for (const settings of [{ planMode: false }, { planMode: true, content: 'none' as const }, { planMode: true, configured: false }]) {
      const judge = new FakeJudge([], [], settings);
      const floor = new RecordingFloor([answer('Hi.')]);
      expect(await createDefaultLoop(() => judge).run(floor)).toEqual({ answer: 'Hi.' });
      expect(judge.asks).toEqual([]);
    }
  });

  it('has the judge score the plan an irreversible call needs, outside plan mode too', async () => {
    const judge = new FakeJudge([0.75]);
    const floor = new RecordingFloor([withCalls('p'), answer('1. publish'), withCalls('q'), answer('Published.')], { toolAnswers: { p: 'PLAN_REQUIRED' } });
    expect(await createDefaultLoop(() => judge).run(floor)).toEqual({ answer: 'Published.' });
    expect(floor.outcomes).toEqual([{ plan: '1. publish', approved: true, by: 'judge', round: 1, score: 0.75 }]);
    expect(judge.reviews[0]?.ask).toBe('the ask');
  });

  it('sends the plan to the person when the judge may not see it (content none)', async () => {
    const judge = new FakeJudge([], [], { content: 'none' });
    const floor = new RecordingFloor([withCalls('p'), answer('1. publish'), answer('Published.')], { toolAnswers: { p: 'PLAN_REQUIRED' }, person: true });
    expect(await createDefaultLoop(() => judge).run(floor)).toEqual({ answer: 'Published.' });
    expect(judge.reviews).toEqual([]);
    expect(floor.outcomes[0]?.by).toBe('person');
  });

  it('fails closed when the judge fails: the draft is recorded as not approved and the turn ends with its envelope', async () => {
    const failure = judgeFailure();
    const judge = new FakeJudge([failure]);
    const floor = new RecordingFloor([withCalls('p'), answer('1. publish')], { toolAnswers: { p: 'PLAN_REQUIRED' }, person: true });
    await expect(createDefaultLoop(() => judge).run(floor)).rejects.toBe(failure);
    expect(floor.outcomes).toEqual([{ plan: '1. publish', approved: false, by: 'judge', round: 1 }]);
    expect(floor.calls).not.toContain('plans.confirm');
  });
});
