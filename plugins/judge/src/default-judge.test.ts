import { describe, expect, it } from 'vitest';
import type { ModelCompletion, ModelMessage, Redactor } from '@nodwyn/plugin-api';
import { DefaultJudge } from './default-judge.js';
import { parseJudgeConfig } from './judge-config.js';

/** A stand-in text layer: `SECRET-<word>` is a secret. */
const redactor: Redactor = { redact: (text) => ({ text: text.replace(/SECRET-\w+/g, '[REDACTED test]'), findings: [] }) };

/** A judge on a fake model: each call takes the next answer (text, a thrown error, or never). */
function harness(judge: Record<string, unknown>, answers: (string | Error | 'hang')[], layer: Redactor = redactor) {
  const sent: string[] = [];
  const events: Record<string, unknown>[] = [];
  const complete = async (request: ModelCompletion) => {
    sent.push(request.messages.map((m) => m.text).join('\n'));
    const answer = answers.shift();
    if (answer === undefined) throw new Error('asked more often than the test expects');
    if (answer instanceof Error) throw answer;
    if (answer === 'hang') return new Promise<never>(() => undefined);
    return { text: answer };
  };
  const subject = new DefaultJudge({ config: parseJudgeConfig({ judge: { provider: 'fake', model: 'jev', ...judge } }), complete, redactor: () => layer, record: (_s, p) => void events.push(p) });
  return { judge: subject, sent, events };
}

const signal = () => new AbortController().signal;
const window: ModelMessage[] = [
  { role: 'user', text: 'tidy the repo' },
  { role: 'assistant', text: 'looking', toolCalls: [{ id: 'c1', name: 'list_dir', args: { path: '.' } }] },
  { role: 'tool', callId: 'c1', name: 'list_dir', text: `a.ts\nb.ts ${'x'.repeat(300)}`, isError: false },
  { role: 'tool', callId: 'c2', name: 'read_file', text: 'not found', isError: true },
];
const review = (round = 1) => ({ session: 's', ask: 'tidy the repo', plan: '1. delete b.ts', round, window });

describe('DefaultJudge seam A', () => {
  it('approves at or above the threshold and asks for a revision below it, from the score alone', async () => {
    const { judge, events } = harness({ threshold: 0.7 }, ['{"score": 0.7, "feedback": "fine"}', 'Reasoning... {"score": 0.69, "feedback": "name the files"} approved!']);
    expect(await judge.scorePlan(review(1), signal())).toEqual({ approved: true, score: 0.7, feedback: '' });
    expect(await judge.scorePlan(review(2), signal())).toEqual({ approved: false, score: 0.69, feedback: 'name the files' });
    expect(events).toEqual([
      { seam: 'plan', content: 'plan', sent: 'ask+plan', provider: 'fake', model: 'jev', round: 1, score: 0.7, decision: 'approved' },
      { seam: 'plan', content: 'plan', sent: 'ask+plan', provider: 'fake', model: 'jev', round: 2, score: 0.69, decision: 'revise' },
    ]);
  });

  it.each(['looks good', '{"score": 1.2}', '{"score": "high"}', '{"feedback": "x"}', ''])('fails closed on the answer %j', async (answer) => {
    const { judge, events } = harness({}, [answer]);
    await expect(judge.scorePlan(review(), signal())).rejects.toMatchObject({ envelope: { category: 'UPSTREAM_UNAVAILABLE', code: 'JUDGE_FAILED' } });
    expect(events).toEqual([expect.objectContaining({ seam: 'plan', decision: 'failed', code: 'JUDGE_FAILED', round: 1 })]);
  });

  it('fails closed when the model throws, and on timeout even if the model never returns', async () => {
    const failing = harness({}, [new Error('socket hang up')]);
    await expect(failing.judge.scorePlan(review(), signal())).rejects.toMatchObject({ envelope: { code: 'JUDGE_FAILED', remediation: expect.stringContaining('socket hang up') } });
    const slow = harness({ timeout_ms: 100 }, ['hang']);
    await expect(slow.judge.scorePlan(review(), signal())).rejects.toMatchObject({ envelope: { category: 'TIMEOUT', code: 'JUDGE_TIMEOUT' } });
    expect(slow.events).toEqual([expect.objectContaining({ decision: 'failed', code: 'JUDGE_TIMEOUT', sent: 'ask+plan' })]);
  });

  it('is CANCELLED when the caller aborts', async () => {
    const { judge } = harness({}, ['hang']);
    const controller = new AbortController();
    const verdict = judge.scorePlan(review(), controller.signal);
    controller.abort();
    await expect(verdict).rejects.toMatchObject({ envelope: { category: 'CANCELLED', code: 'JUDGE_CANCELLED' } });
  });

  it('redacts the payload, and sends nothing when the text layer fails', async () => {
    const ok = harness({}, ['{"score": 1}']);
    await ok.judge.scorePlan({ ...review(), plan: '1. use SECRET-abc', ask: 'deploy with SECRET-def' }, signal());
    expect(ok.sent[0]).toContain('1. use [REDACTED test]');
    expect(ok.sent[0]).not.toMatch(/SECRET-/);
    const broken = harness({}, ['{"score": 1}'], { redact: () => { throw new Error('detector crashed'); } });
    await expect(broken.judge.scorePlan(review(), signal())).rejects.toMatchObject({ envelope: { code: 'JUDGE_REDACTION_FAILED' } });
    expect(broken.sent).toEqual([]);
    expect(broken.events).toEqual([expect.objectContaining({ decision: 'failed', code: 'JUDGE_REDACTION_FAILED', sent: 'nothing' })]);
  });

  it('enforces the content level on what it sends', async () => {
    const none = harness({ content: 'none' }, []);
    await expect(none.judge.scorePlan(review(), signal())).rejects.toMatchObject({ envelope: { code: 'JUDGE_CONTENT_NONE' } });
    expect(none.sent).toEqual([]);
    expect(none.events).toEqual([expect.objectContaining({ content: 'none', sent: 'nothing', code: 'JUDGE_CONTENT_NONE' })]);

    const plan = harness({ content: 'plan' }, ['{"score": 1}']);
    await plan.judge.scorePlan(review(), signal());
    expect(plan.sent[0]).toContain('<request>\ntidy the repo\n</request>');
    expect(plan.sent[0]).toContain('<plan>\n1. delete b.ts\n</plan>');
    expect(plan.sent[0]).not.toContain('a.ts');

    const summaries = harness({ content: 'plan+summaries' }, ['{"score": 1}']);
    await summaries.judge.scorePlan(review(), signal());
    const lines = summaries.sent[0]!.split('\n');
    const first = lines.find((l) => l.startsWith('- list_dir: ok: a.ts b.ts'))!;
    expect(first.length).toBeLessThan(200);
    expect(lines).toContain('- read_file: failed: not found');
    expect(summaries.sent[0]).not.toContain('call list_dir');

    const full = harness({ content: 'full' }, ['{"score": 1}']);
    await full.judge.scorePlan(review(), signal());
    expect(full.sent[0]).toContain('[assistant]\nlooking\ncall list_dir {"path":"."}');
    expect(full.sent[0]).toContain('x'.repeat(300));
    expect(full.events[0]).toMatchObject({ content: 'full', sent: 'ask+plan+window' });
  });

  it('fails closed with JUDGE_NOT_CONFIGURED without a provider', async () => {
    const judge = new DefaultJudge({ config: parseJudgeConfig({}), complete: () => Promise.reject(new Error('never')), redactor: () => redactor, record: () => undefined });
    expect([judge.configured, judge.planMode]).toEqual([false, false]);
    await expect(judge.scorePlan(review(), signal())).rejects.toMatchObject({ envelope: { category: 'PRECONDITION_FAILED', code: 'JUDGE_NOT_CONFIGURED' } });
    await expect(judge.gate('s', 'ask', signal())).rejects.toMatchObject({ envelope: { code: 'JUDGE_NOT_CONFIGURED' } });
    await expect(judge.scoreEgress({ session: 's', classes: ['none'], destination: 'x.example', scope: 'POST' }, signal())).rejects.toMatchObject({ envelope: { code: 'JUDGE_NOT_CONFIGURED' } });
  });
});

describe('DefaultJudge gate and seam C', () => {
  it('the gate sees the ask only and answers its plan_needed', async () => {
    const { judge, sent, events } = harness({ mode: 'on' }, ['{"plan_needed": true}', '{"plan_needed": false}']);
    expect(judge.planMode).toBe(true);
    expect(await judge.gate('s', 'drop the prod table', signal())).toBe(true);
    expect(await judge.gate('s', 'what is 2+2', signal())).toBe(false);
    expect(sent[0]).toContain('<request>\ndrop the prod table\n</request>');
    expect(events.map((e) => [e.seam, e.sent, e.decision])).toEqual([['gate', 'ask', 'plan'], ['gate', 'ask', 'no-plan']]);
  });

  it('the gate is skipped (no plan, logged) when the judge may see nothing', async () => {
    const { judge, sent, events } = harness({ content: 'none' }, []);
    expect(await judge.gate('s', 'anything', signal())).toBe(false);
    expect(sent).toEqual([]);
    expect(events).toEqual([expect.objectContaining({ seam: 'gate', sent: 'nothing', decision: 'skipped' })]);
  });

  it('a gate answer that is not its JSON fails (the caller then asks for a plan)', async () => {
    const { judge } = harness({}, ['{"score": 0.9}']);
    await expect(judge.gate('s', 'x', signal())).rejects.toMatchObject({ envelope: { code: 'JUDGE_FAILED', expected: '{"plan_needed": true|false}' } });
  });

  it('seam C scores class, destination and scope against the threshold', async () => {
    const { judge, sent, events } = harness({ threshold: 0.5 }, ['{"score": 0.5}', '{"score": 0.49}']);
    const situation = { session: 's', classes: ['none'], destination: 'api.example.com/v1', scope: 'POST via http_request (mutate)' };
    expect(await judge.scoreEgress(situation, signal())).toEqual({ allow: true, score: 0.5 });
    expect(await judge.scoreEgress(situation, signal())).toEqual({ allow: false, score: 0.49 });
    expect(sent[0]).toContain('<destination>\napi.example.com/v1\n</destination>');
    expect(events.map((e) => [e.seam, e.sent, e.decision])).toEqual([['egress', 'situation', 'allow'], ['egress', 'situation', 'confirm']]);
  });
});
