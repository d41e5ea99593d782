import type { WindowView } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { answer, entry, RecordingFloor } from '../test/recording-floor.js';
import { compact, KEEP_STEPS, pickSpan } from './compaction.js';

const SESSION = 'session-under-test';

function view(entries: WindowView['entries'], budget: number): WindowView {
  return { entries, tokens: entries.reduce((sum, e) => sum + e.tokens, 0), budget };
}

/** An ask, then `n` steps of a call (seq s) and its result (s + 1), each `tokens` big. */
function steps(n: number, tokens: number, firstSeq = 3) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(entry('assistant', firstSeq + 2 * i, 1), entry('tool', firstSeq + 2 * i + 1, tokens - 1));
  return out;
}

describe('compaction policy', () => {
  it('does nothing while the window fits its budget', async () => {
    const floor = new RecordingFloor([answer('done')], { view: view([entry('user', 1, 10), ...steps(10, 10)], 1000) });
    await compact(floor);
    expect(floor.summaries).toEqual([]);
  });

  it('summarises the oldest whole steps until half the budget is free, keeping the newest steps verbatim', () => {
    const entries = [entry('user', 1, 10), ...steps(20, 100)];
    const span = pickSpan(view(entries, 2500), SESSION, 2010 - 750);
    // 2010 tokens, to be brought to 750: the oldest 13 steps (seq 3..28) free 1300.
    expect(span).toEqual({ fromSeq: 3, toSeq: 28, tokens: 1300 });
  });

  it('takes no more than one summary request may quote (60% of the budget)', () => {
    const entries = [entry('user', 1, 10), ...steps(20, 100)];
    expect(pickSpan(view(entries, 1500), SESSION, 10_000)).toEqual({ fromSeq: 3, toSeq: 20, tokens: 900 });
  });

  it('never takes a user message, a plan note, or the newest steps, and never stops between a call and its result', () => {
    const entries = [entry('user', 1, 10), ...steps(2, 100), entry('note', 7, 10), ...steps(KEEP_STEPS + 1, 100, 8)];
    const span = pickSpan(view(entries, 1000), SESSION, 10_000);
    expect(span).toEqual({ fromSeq: 3, toSeq: 6, tokens: 200 });
    const tail = pickSpan(view(entries.slice(4), 1000), SESSION, 10_000);
    expect(tail).toEqual({ fromSeq: 8, toSeq: 9, tokens: 100 });
  });

  it('skips a run that is only an older summary', () => {
    const entries = [entry('user', 1, 10), entry('summary', 3, 20, 40), entry('user', 41, 10), ...steps(KEEP_STEPS + 2, 100, 42)];
    expect(pickSpan(view(entries, 1000), SESSION, 10_000)).toEqual({ fromSeq: 42, toSeq: 45, tokens: 200 });
  });

  it('keeps fewer of the newest steps verbatim when they would take more than half the budget', () => {
    // Steps of 300 tokens under a budget of 1000: two of them are over half of it, so only one is kept.
    const entries = [entry('user', 1, 10), ...steps(5, 300)];
    expect(pickSpan(view(entries, 1000), SESSION, 10_000)).toEqual({ fromSeq: 3, toSeq: 6, tokens: 600 });
    expect(pickSpan(view(entries, 1000), SESSION, 10_000, KEEP_STEPS)).toEqual({ fromSeq: 3, toSeq: 4, tokens: 300 });
  });

  it('summarises all but the newest step when the newest steps alone outgrow the budget', async () => {
    const floor = new RecordingFloor([answer('done')], { view: view([entry('user', 1, 10), ...steps(KEEP_STEPS, 400)], 1000) });
    floor.summaryFails = true;
    await compact(floor);
    expect(floor.summaries).toEqual([{ fromSeq: 3, toSeq: 4 }]);
  });

  it('goes on with the window as it is when a summary fails', async () => {
    const floor = new RecordingFloor([answer('done')], { view: view([entry('user', 1, 10), ...steps(10, 100)], 300) });
    floor.summaryFails = true;
    await compact(floor);
    expect(floor.summaries).toHaveLength(1);
  });
});
