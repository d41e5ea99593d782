import type { ApplyResult } from '@nodwyn/plugin-api';
import type { TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { loopbackServer, startEgress, StubTracker, useTempHome, type LoopbackServer } from './fixtures.js';

useTempHome();
const SECRET = 'AKIAZZTAINTEDVALUE77';
let t: TestKernel | undefined;
let s: LoopbackServer | undefined;

afterEach(async () => {
  await t?.stop();
  t = undefined;
  await s?.close();
});

/** Like L2, also tags a text that carries L1's placeholder, which is not a match against a value. */
class PlaceholderTracker extends StubTracker {
  override tagsOf(session: string, text: string): readonly string[] {
    return [...new Set([...this.matches(session, text), ...(text.includes('[REDACTED aws]') ? ['aws'] : [])])].sort();
  }
}

function codeOf(result: ApplyResult): string {
  return result.ok ? 'sent' : String(result.envelope.code);
}

describe('the egress edge is not an oracle', () => {
  it('counts each refusal caused by a remembered value as a strike, and refuses everything after three', async () => {
    s = await loopbackServer();
    const tracker = new PlaceholderTracker();
    t = await startEgress({ tracker });
    const session = t.session();
    tracker.remember(session, SECRET, ['aws']);
    // Sandboxed code probing: a request per guess, watching which are refused (host calls, as a door makes them).
    const send = (body: string) => t!.kernel.apply({ session, name: 'http_request', args: { method: 'POST', url: `${s!.origin}/p`, body }, origin: 'host' });
    const outcomes = [];
    for (const guess of ['clean guess one', SECRET, 'clean guess two', SECRET, 'a [REDACTED aws] placeholder', SECRET, 'clean guess three']) outcomes.push(codeOf(await send(guess)));
    expect(outcomes).toEqual([
      'sent',
      'GUARD_EGRESS_UNBOUND',
      'sent',
      'GUARD_EGRESS_UNBOUND',
      // A placeholder is the model's own knowledge, not a secret's: refused, but no strike.
      'GUARD_EGRESS_UNBOUND',
      'GUARD_EGRESS_UNBOUND',
      'SECURITY_STRIKES_EXCEEDED',
    ]);
    expect(s.seen.map((r) => r.body)).toEqual(['clean guess one', 'clean guess two']);
    expect(t.events(session).filter((e) => e.type === 'security.withheld').map((e) => e.payload.source)).toEqual(['egress', 'egress', 'egress']);
  });
});
