import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as path from 'node:path';
import { EventLog, canonicalJson, type AppendDraft } from '../../src/log/index.js';
import { rawTamperHandle, tempLog, type TempLog } from './helpers.js';

const payloadArb = fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 }), { maxKeys: 5 });
/** Payloads, each tagged with the size of the batch it starts (1 = a single append). */
const historyArb = fc.array(fc.record({ payload: payloadArb, batch: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 14 });

function appendHistory(log: EventLog, session: string, history: readonly { payload: Record<string, unknown>; batch: number }[]): void {
  for (let i = 0; i < history.length; ) {
    const size = history[i]?.batch ?? 1;
    const drafts: AppendDraft[] = history.slice(i, i + size).map(({ payload }) => ({ type: 'tool.completed', actor: 'tool:probe', payload }));
    if (drafts.length === 1 && size === 1) log.append(session, drafts[0] as AppendDraft);
    else log.appendBatch(session, drafts);
    i += drafts.length;
  }
}

describe('the hash chain (properties)', () => {
  let t: TempLog;
  let run = 0;
  beforeAll(() => {
    t = tempLog('nodwyn-chain-');
  });
  afterAll(() => t.cleanup());

  const fresh = (): { file: string; log: EventLog } => {
    run += 1;
    const file = path.join(t.dir, `run-${run}.db`);
    return { file, log: EventLog.open({ path: file, keyPath: t.keyPath }) };
  };

  // Each property opens 40 SQLite databases: seconds on a loaded 2-core machine, not a hang.
  const PROPERTY_TIMEOUT_MS = 60_000;

  it('verifies for any sequence of payloads, appended singly or in batches', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        const { log } = fresh();
        try {
          appendHistory(log, 's', history);
          expect(log.verify()).toEqual({ ok: true, sessions: 1, events: history.length });
          expect(log.read('s').map((e) => canonicalJson(e.payload))).toEqual(history.map((h) => canonicalJson(h.payload)));
        } finally {
          log.close();
        }
      }),
      { numRuns: 40 },
    );
  }, PROPERTY_TIMEOUT_MS);

  it("names exactly the seq whose payload was changed, whichever it is", () => {
    fc.assert(
      fc.property(historyArb, fc.nat(), payloadArb, (history, pick, replacement) => {
        const seq = (pick % history.length) + 1;
        const original = history[seq - 1]?.payload ?? {};
        // Any different JSON object will do; adding a key guarantees a difference.
        const changed = canonicalJson(replacement) === canonicalJson(original) ? { ...replacement, tampered: true } : replacement;
        const { file, log } = fresh();
        appendHistory(log, 's', history);
        log.close();
        const raw = rawTamperHandle(file);
        raw.prepare('UPDATE events SET payload = ? WHERE session = ? AND seq = ?').run(canonicalJson(changed), 's', seq);
        raw.close();
        const again = EventLog.open({ path: file, keyPath: t.keyPath });
        try {
          expect(again.verify()).toMatchObject({ ok: false, session: 's', seq, problem: 'hash_mismatch' });
        } finally {
          again.close();
        }
      }),
      { numRuns: 40 },
    );
  }, PROPERTY_TIMEOUT_MS);
});
