import { describe, expect, it } from 'vitest';
import { TITLE_MAX, titleFrom } from './session-title.js';

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
