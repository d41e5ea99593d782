import { describe, expect, it } from 'vitest';
import { judgeKernel, judgeSpyPlugin, postNotePlugin, type JudgeSpy } from './fixtures.js';

const note = { url: 'https://collect.example.com/upload/4711?x=1', note: 'the quarterly numbers' };

async function egressKernel(answers: JudgeSpy['answers'], judge: Record<string, unknown> = {}) {
  const spy: JudgeSpy = { received: [], answers };
  const sent: string[] = [];
  const t = await judgeKernel({ provider: 'judge-spy', threshold: 0.6, ...judge }, judgeSpyPlugin(spy), postNotePlugin(sent));
  return { t, spy, sent, session: t.session() };
}

describe('seam C (judge-egress) on the real kernel', () => {
  it('asks a person when the score is below the threshold, and denies the call when there is none', async () => {
    const { t, spy, sent, session } = await egressKernel(['{"score": 0.2, "feedback": "odd"}']);
    try {
      const result = await t.apply('post_note', note, { session });
      expect(result).toMatchObject({ ok: false, stage: 'egress', envelope: { category: 'CONFIRMATION_REQUIRED', code: 'JUDGE_EGRESS_UNCERTAIN' } });
      if (!result.ok) expect(result.envelope.remediation).toContain('collect.example.com/upload (POST via post_note (mutate))');
      expect(sent).toEqual([]);
      // Class, destination and scope only: never the body, the rest of the path or the query.
      const [seen] = spy.received;
      expect(seen).toContain('<classes>\nnone\n</classes>');
      expect(seen).toContain('<destination>\ncollect.example.com/upload\n</destination>');
      expect(seen).toContain('<scope>\nPOST via post_note (mutate)\n</scope>');
      for (const value of ['quarterly', '4711', 'x=1']) expect(seen).not.toContain(value);
      const scored = t.events(session).find((e) => e.type === 'judge.scored')?.payload;
      expect(scored).toEqual({ seam: 'egress', content: 'plan', sent: 'situation', provider: 'judge-spy', score: 0.2, decision: 'confirm' });
    } finally {
      await t.stop();
    }
  });

  it('lets the person allow a call the judge was unsure of', async () => {
    const { t, sent, session } = await egressKernel(['{"score": 0.2}']);
    try {
      const reasons: string[] = [];
      const confirmer = { confirm: async (request: { reason: string }) => (reasons.push(request.reason), true) };
      const result = await t.apply('post_note', note, { session, confirm: confirmer });
      expect(result.ok).toBe(true);
      expect(sent).toEqual(['the quarterly numbers']);
      expect(reasons).toEqual(['send data to collect.example.com/upload (POST via post_note (mutate)): the judge scored it 0.2, below 0.6']);
    } finally {
      await t.stop();
    }
  });

  it('allows the call without asking anyone when the score clears the threshold', async () => {
    const { t, sent, session } = await egressKernel(['{"score": 0.6}']);
    try {
      expect((await t.apply('post_note', note, { session })).ok).toBe(true);
      expect(sent).toEqual(['the quarterly numbers']);
      expect(t.events(session).some((e) => e.type === 'confirmation.decided')).toBe(false);
    } finally {
      await t.stop();
    }
  });

  it('denies the call when the judge fails, even with a person there (fails closed)', async () => {
    for (const answer of ['no idea', new Error('connection reset')]) {
      const { t, sent, session } = await egressKernel([answer]);
      try {
        const result = await t.apply('post_note', note, { session, confirm: true });
        expect(result).toMatchObject({ ok: false, envelope: { category: 'UPSTREAM_UNAVAILABLE', code: 'JUDGE_FAILED' } });
        expect(sent).toEqual([]);
        expect(t.events(session).find((e) => e.type === 'judge.scored')?.payload).toMatchObject({ seam: 'egress', decision: 'failed', code: 'JUDGE_FAILED' });
      } finally {
        await t.stop();
      }
    }
  });

  it('is not asked about what the binding table decides, a bare GET, host calls, or with egress off', async () => {
    const { t, spy, session } = await egressKernel([]);
    try {
      await t.apply('post_note', { ...note, note: 'Bearer {{secret:github}}' }, { session });
      await t.apply('post_note', { ...note, method: 'GET' }, { session });
      await t.apply('post_note', note, { session, origin: 'host' });
      expect(spy.received).toEqual([]);
    } finally {
      await t.stop();
    }
    const off = await egressKernel([], { egress: 'off' });
    try {
      expect((await off.t.apply('post_note', note, { session: off.session })).ok).toBe(true);
      expect(off.spy.received).toEqual([]);
    } finally {
      await off.t.stop();
    }
  });
});
