import { EventLog } from '@nodwyn/kernel';
import { describe, expect, it } from 'vitest';
import { latestTitle, TITLE_MAX, titleFrom } from './session-title.js';

describe('titleFrom', () => {
  it('keeps the first line of the text, its spaces folded', () => {
    expect(titleFrom('  Fix   the\tparser \nand then the tests')).toBe('Fix the parser');
  });

  it(`cuts a long line to ${TITLE_MAX} characters, the last an ellipsis`, () => {
    const title = titleFrom('x'.repeat(200));
    expect([title.length, title.at(-1)]).toEqual([TITLE_MAX, '…']);
    expect(titleFrom('y'.repeat(TITLE_MAX))).toBe('y'.repeat(TITLE_MAX));
  });

  it('is empty for blank text, so a caller can refuse it', () => {
    expect(titleFrom(' \n ')).toBe('');
  });
});

describe('latestTitle', () => {
  it("is the latest session.titled's title, and undefined before any", () => {
    const log = EventLog.open({ path: ':memory:', key: Buffer.alloc(32) });
    try {
      log.append('s-1', { type: 'session.created', actor: 'kernel', payload: { workspace: '/w', title: 'from the fork' } });
      expect(latestTitle(log, 's-1')).toBeUndefined();
      log.append('s-1', { type: 'session.titled', actor: 'user', payload: { title: 'Fix the parser' } });
      log.append('s-1', { type: 'message.user', actor: 'user', payload: { text: 'fix it' } });
      log.append('s-1', { type: 'session.titled', actor: 'user', payload: { title: 'Parser, then tests' } });
      log.append('s-1', { type: 'message.user', actor: 'user', payload: { text: 'and the tests' } });
      expect(latestTitle(log, 's-1')).toBe('Parser, then tests');
      expect(latestTitle(log, 's-none')).toBeUndefined();
    } finally {
      log.close();
    }
  });
});
