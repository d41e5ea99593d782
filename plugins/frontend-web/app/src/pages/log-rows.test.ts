import type { LogEvent } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { eventLine, mergeEvents, verdictText } from './log-rows.js';

const event = (seq: number): LogEvent => ({ session: 's', seq, ts: 't', type: 'message.user', actor: 'user', payload: {}, prev: 'a'.repeat(64), hash: 'b'.repeat(64) });

describe('log rows', () => {
  it('shortens the chain to prev → hash', () => {
    expect(eventLine(event(3))).toMatchObject({ seq: '3', type: 'message.user', actor: 'user', chain: 'aaaaaaaaaa → bbbbbbbbbb' });
  });

  it('says what verify found, naming the first bad event', () => {
    expect(verdictText({ ok: true, sessions: 1, events: 12 })).toBe('Verified: 12 events in 1 session, hash chain and signed checkpoint intact.');
    expect(verdictText({ ok: false, session: 's', seq: 4, problem: 'hash mismatch', detail: 'edited', sessions: 1, events: 12 })).toBe('Verification FAILED at event 4 of s: hash mismatch. edited');
  });

  it('merges pages by seq, each event once', () => {
    expect(mergeEvents([event(3), event(4)], [event(1), event(3)]).map((e) => e.seq)).toEqual([1, 3, 4]);
  });
});
