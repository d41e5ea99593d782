import { describe, expect, it } from 'vitest';
import { EnvelopeError, type EgressSituation, type EgressTarget, type GuardCall, type Judge } from '@nodwyn/plugin-api';
import { createJudgeEgressStage } from './judge-egress-stage.js';

/** A judge whose egress scores come from a map by destination; anything else fails. */
function fakeJudge(scores: Record<string, number>) {
  const seen: EgressSituation[] = [];
  const judge: Judge = {
    configured: true,
    content: 'plan',
    planMode: false,
    gate: () => Promise.reject(new Error('not used')),
    scorePlan: () => Promise.reject(new Error('not used')),
    async scoreEgress(situation) {
      seen.push(situation);
      const score = scores[situation.destination];
      if (score === undefined) throw new EnvelopeError({ category: 'UPSTREAM_UNAVAILABLE', code: 'JUDGE_FAILED', remediation: 'The judge failed.' });
      return { allow: score >= 0.7, score };
    },
  };
  return { judge, seen };
}

const post = (url: string, value = 'data'): EgressTarget => ({ method: 'POST', url, positions: [{ kind: 'body', name: '$.v', value }] });
const call = (targets: EgressTarget[], extra: Partial<GuardCall> = {}): GuardCall => ({
  id: 'c1', session: 's', name: 'http_request', args: {}, tier: 'mutate', visibility: 'model', owner: 'egress', egress: true, targets, origin: 'model', taint: [], ...extra,
});

describe('judge-egress stage', () => {
  it('allows at or above the threshold and asks a person below it, naming destination and scope', async () => {
    const { judge, seen } = fakeJudge({ 'ok.example.com/api': 0.9, 'odd.example.net': 0.1 });
    const stage = createJudgeEgressStage({ judge, enabled: true, threshold: 0.7 });
    expect(await stage.check(call([post('https://ok.example.com/api/items/42?token=x')]))).toEqual({ kind: 'allow' });
    expect(seen[0]).toEqual({ session: 's', classes: ['none'], destination: 'ok.example.com/api', scope: 'POST via http_request (mutate)' });
    const verdict = await stage.check(call([post('https://ok.example.com/api/1'), post('https://odd.example.net/')]));
    expect(verdict).toMatchObject({ kind: 'confirm', reason: 'send data to odd.example.net (POST via http_request (mutate)): the judge scored it 0.1, below 0.7', otherwise: { code: 'JUDGE_EGRESS_UNCERTAIN' } });
  });

  it('denies with the judge failure envelope, and denies a URL it cannot describe', async () => {
    const stage = createJudgeEgressStage({ judge: fakeJudge({}).judge, enabled: true, threshold: 0.7 });
    expect(await stage.check(call([post('https://unknown.example')]))).toMatchObject({ kind: 'deny', envelope: { code: 'JUDGE_FAILED' } });
    expect(await stage.check(call([post('not a url')]))).toMatchObject({ kind: 'deny', envelope: { code: 'JUDGE_EGRESS_TARGET_INVALID' } });
  });

  it.each([
    ['a host call', call([post('https://x.example')], { origin: 'host' })],
    ['a call that is not egress', call([], { egress: false })],
    ['a secret handle in a value', call([post('https://x.example', 'Bearer {{secret:gh}}')])],
    ['a secret handle in the URL', call([post('https://x.example/?k={{secret:gh}}')])],
    ['tainted arguments', call([post('https://x.example')], { taint: ['github-token'] })],
    ['a GET with no values', call([{ method: 'GET', url: 'https://x.example/page', positions: [] }])],
  ])('leaves %s to the other stages', async (_what, guarded) => {
    const { judge, seen } = fakeJudge({});
    expect(await createJudgeEgressStage({ judge, enabled: true, threshold: 0.7 }).check(guarded)).toEqual({ kind: 'allow' });
    expect(seen).toEqual([]);
  });

  it('does nothing when seam C is off', async () => {
    const { judge, seen } = fakeJudge({});
    expect(await createJudgeEgressStage({ judge, enabled: false, threshold: 0.7 }).check(call([post('https://x.example')]))).toEqual({ kind: 'allow' });
    expect(seen).toEqual([]);
  });
});
