import { describe, expect, it } from 'vitest';
import { echoPlugin, type TestKernel } from '@nodwyn/testing';
import { publishPlugin, sequenceProvider } from '@nodwyn/testing';
import { judgeKernel, judgeScript, judgeSpyPlugin, type JudgeSpy } from './fixtures.js';

const scored = (t: TestKernel, session: string) => t.events(session).filter((e) => e.type === 'judge.scored').map((e) => e.payload);
const ofType = (t: TestKernel, session: string, type: string) => t.events(session).filter((e) => e.type === type).map((e) => e.payload);

describe('seam A on the real kernel, with the scripted provider as the judge', () => {
  it('approves the first draft: the gate asks for a plan, the judge approves it, the loop carries it out', async () => {
    const script = judgeScript('{"plan_needed": true, "score": 0.9, "feedback": ""}');
    const t = await judgeKernel({ provider: 'scripted', options: { script }, mode: 'on' }, echoPlugin());
    try {
      const model = sequenceProvider([{ text: '1. echo hello' }, { toolCalls: [{ name: 'echo', args: { text: 'hello' } }] }, { text: 'Said hello.' }]);
      const result = await t.run('say hello', { provider: model });
      expect(result).toMatchObject({ reason: 'answer', answer: 'Said hello.' });
      expect(ofType(t, result.session, 'plan.requested')).toEqual([{ reason: 'the plan gate asked for a plan' }]);
      expect(ofType(t, result.session, 'plan.approved')).toEqual([{ plan: '1. echo hello', by: 'judge', round: 1, score: 0.9 }]);
      expect(scored(t, result.session)).toEqual([
        { seam: 'gate', content: 'plan', sent: 'ask', provider: 'scripted', decision: 'plan' },
        { seam: 'plan', content: 'plan', sent: 'ask+plan', provider: 'scripted', round: 1, score: 0.9, decision: 'approved' },
      ]);
      expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user', text: '[nodwyn] The plan was approved. Carry it out now.' });
    } finally {
      await t.stop();
    }
  });

  it('demands revisions and stops after the first draft and 3 revisions with PLAN_NOT_APPROVED', async () => {
    const script = judgeScript('{"plan_needed": true, "score": 0.2, "feedback": "say which file"}');
    const t = await judgeKernel({ provider: 'scripted', options: { script }, mode: 'on' });
    try {
      const model = sequenceProvider([{ text: 'd1' }, { text: 'd2' }, { text: 'd3' }, { text: 'd4' }, { text: 'never asked for' }]);
      const result = await t.run('fix it', { provider: model });
      expect(result).toMatchObject({ reason: 'failed', envelope: { category: 'PRECONDITION_FAILED', code: 'PLAN_NOT_APPROVED' } });
      expect(model.requests).toHaveLength(4);
      const revise = ofType(t, result.session, 'plan.revise');
      expect(revise.map((p) => [p.plan, p.round, p.score, p.feedback])).toEqual([1, 2, 3, 4].map((n) => [`d${n}`, n, 0.2, 'say which file']));
      expect(scored(t, result.session).filter((p) => p.seam === 'plan').map((p) => p.decision)).toEqual(['revise', 'revise', 'revise', 'revise']);
      // The model saw the judge's feedback before each revision.
      expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user', text: expect.stringContaining('Feedback: say which file') });
    } finally {
      await t.stop();
    }
  });

  it('fails closed when the judge answers something other than its JSON', async () => {
    const script = judgeScript('Looks great to me!');
    const t = await judgeKernel({ provider: 'scripted', options: { script }, mode: 'on' });
    try {
      const result = await t.run('fix it', { provider: sequenceProvider([{ text: '1. fix' }, { text: 'never' }]), confirm: true });
      expect(result).toMatchObject({ reason: 'failed', envelope: { category: 'UPSTREAM_UNAVAILABLE', code: 'JUDGE_FAILED' } });
      // The failing gate asked for a plan (fails closed); the plan was recorded as not approved.
      expect(scored(t, result.session).map((p) => [p.seam, p.decision, p.code])).toEqual([['gate', 'failed', 'JUDGE_FAILED'], ['plan', 'failed', 'JUDGE_FAILED']]);
      expect(ofType(t, result.session, 'plan.revise')).toEqual([{ plan: '1. fix', by: 'judge', round: 1 }]);
      expect(ofType(t, result.session, 'plan.approved')).toEqual([]);
    } finally {
      await t.stop();
    }
  });

  it('fails closed when the judge provider fails, naming its error; the hard trigger uses the judge outside plan mode', async () => {
    const published: string[] = [];
    const t = await judgeKernel({ provider: 'scripted', options: { script: '/nonexistent/judge.json' } }, publishPlugin(published));
    try {
      const model = sequenceProvider([{ toolCalls: [{ name: 'publish', args: { version: 'v1' } }] }, { text: '1. publish v1' }, { text: 'never' }]);
      const result = await t.run('release', { provider: model, confirm: true });
      expect(result).toMatchObject({ reason: 'failed', envelope: { code: 'JUDGE_FAILED', remediation: expect.stringContaining('SCRIPT_NOT_FOUND') } });
      expect(scored(t, result.session)).toEqual([{ seam: 'plan', content: 'plan', sent: 'ask+plan', provider: 'scripted', round: 1, decision: 'failed', code: 'JUDGE_FAILED', cause: 'SCRIPT_NOT_FOUND' }]);
      expect(published).toEqual([]);
    } finally {
      await t.stop();
    }
  });
});

describe('seam A on the real kernel, with a judge provider that records what it received', () => {
  const spyKernel = (spy: JudgeSpy, judge: Record<string, unknown> = {}) => judgeKernel({ provider: 'judge-spy', model: 'jev', ...judge }, judgeSpyPlugin(spy), echoPlugin());

  it('approves a revision: each draft is scored in turn, with the feedback passed to the model', async () => {
    const spy: JudgeSpy = { received: [], answers: ['{"plan_needed": true}', '{"score": 0.3, "feedback": "too vague"}', '{"score": 0.8}'] };
    const t = await spyKernel(spy, { mode: 'on' });
    try {
      const result = await t.run('tidy up', { provider: sequenceProvider([{ text: 'tidy' }, { text: '1. remove dead code in a.ts' }, { text: 'Tidied.' }]) });
      expect(result).toMatchObject({ reason: 'answer', answer: 'Tidied.' });
      expect(ofType(t, result.session, 'plan.approved')).toEqual([{ plan: '1. remove dead code in a.ts', by: 'judge', round: 2, score: 0.8 }]);
      expect(spy.received[2]).toContain('This is draft 2.');
      expect(scored(t, result.session).map((p) => p.model)).toEqual(['jev', 'jev', 'jev']);
    } finally {
      await t.stop();
    }
  });

  it('fails closed when the judge times out, even if its provider ignores the abort', async () => {
    const spy: JudgeSpy = { received: [], answers: ['{"plan_needed": true}', 'hang'] };
    const t = await spyKernel(spy, { mode: 'on', timeout_ms: 200 });
    try {
      const result = await t.run('deploy', { provider: sequenceProvider([{ text: '1. deploy' }]) });
      expect(result).toMatchObject({ reason: 'failed', envelope: { category: 'TIMEOUT', code: 'JUDGE_TIMEOUT' } });
      expect(scored(t, result.session).at(-1)).toMatchObject({ seam: 'plan', decision: 'failed', code: 'JUDGE_TIMEOUT', round: 1 });
      expect(ofType(t, result.session, 'plan.approved')).toEqual([]);
    } finally {
      await t.stop();
    }
  });

  it('sends a secret in the plan to the judge redacted', async () => {
    const spy: JudgeSpy = { received: [], answers: ['{"plan_needed": true}', '{"score": 0.9}'] };
    const t = await spyKernel(spy, { mode: 'on' });
    try {
      const plan = '1. export AWS_ACCESS_KEY_ID=AKIAQWERTYUIOPASDF2H\n2. push with ghp_R8x2KqLm9ZtV4nWp7YbC3dFh6JsA1uEo0GiQ';
      const result = await t.run('deploy', { provider: sequenceProvider([{ text: plan }, { text: 'Deployed.' }]) });
      expect(result.reason).toBe('answer');
      const seen = spy.received[1]!;
      expect(seen).toContain('[REDACTED aws-access-key]');
      expect(seen).toContain('[REDACTED github-token]');
      expect(seen).not.toContain('AKIAQWERTYUIOPASDF2H');
      expect(seen).not.toContain('ghp_R8x2KqLm9ZtV4nWp7YbC3dFh6JsA1uEo0GiQ');
    } finally {
      await t.stop();
    }
  });

  it('with content = none never sends the plan (nor the ask): the person approves it', async () => {
    const spy: JudgeSpy = { received: [], answers: [] };
    const published: string[] = [];
    const t = await judgeKernel({ provider: 'judge-spy', mode: 'on', content: 'none' }, judgeSpyPlugin(spy), publishPlugin(published));
    try {
      const publish = { name: 'publish', args: { version: 'v2' } };
      const model = sequenceProvider([{ toolCalls: [publish] }, { text: '1. publish v2' }, { toolCalls: [publish] }, { text: 'Done.' }]);
      const result = await t.run('release v2', { provider: model, confirm: true });
      expect(result).toMatchObject({ reason: 'answer', answer: 'Done.' });
      expect(ofType(t, result.session, 'plan.approved')).toEqual([{ plan: '1. publish v2', by: 'person', round: 1 }]);
      expect(published).toEqual(['v2']);
      expect(spy.received).toEqual([]);
      expect(scored(t, result.session)).toEqual([]);
    } finally {
      await t.stop();
    }
  });

  it('sends tool results only at plan+summaries (one line each) and full (the whole window)', async () => {
    const cases = [
      ['plan', undefined, 'looked around'],
      ['plan+summaries', '- echo: ok: looked around', '[tool echo ok]'],
      ['full', '[tool echo ok]\nlooked around', '- echo: ok'],
    ] as const;
    for (const [content, shown, hidden] of cases) {
      const spy: JudgeSpy = { received: [], answers: ['{"plan_needed": true}', '{"score": 0.9}'] };
      const t = await spyKernel(spy, { mode: 'on', content });
      try {
        const model = sequenceProvider([{ toolCalls: [{ name: 'echo', args: { text: 'looked around' } }] }, { text: '1. tidy' }, { text: 'ok' }]);
        const result = await t.run('look, then tidy', { provider: model });
        expect(result.reason).toBe('answer');
        const [gate, plan] = spy.received;
        expect(gate).toContain('look, then tidy');
        if (shown) expect(plan).toContain(shown);
        expect(plan).not.toContain(hidden);
        expect(scored(t, result.session).find((p) => p.seam === 'plan')).toMatchObject({ content, round: 2 });
      } finally {
        await t.stop();
      }
    }
  });
});
