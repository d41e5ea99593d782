import { describe, expect, it } from 'vitest';
import { decodeView, markedLines } from './decoded-view.js';

describe('decodeView', () => {
  it('undoes JSON escapes and drops colour codes, mapping each character back', () => {
    const text = 'x \\u0041\\/\x1b[1;31mB\\u001b[0m%2F';
    const view = decodeView(text, 0, text.length, true);
    expect(view.text).toBe('x A/B/');
    expect(text.slice(view.starts[2], view.ends[2])).toBe('\\u0041');
    expect(text.slice(view.starts[4], view.ends[4])).toBe('B');
    expect(text.slice(view.starts[5], view.ends[5])).toBe('%2F');
  });

  it('keeps percent-escapes without the percent view', () => {
    expect(decodeView('a%2Fb', 0, 5, false)).toMatchObject({ text: 'a%2Fb', changed: false });
  });

  it('marks only the lines that need decoding, and not for %20 alone', () => {
    const text = 'plain\nq=red%20shoes\nk=\\u0041\nnext\nx%3Dy';
    expect(markedLines(text)).toEqual([
      { from: 20, to: 28, percent: false },
      { from: 34, to: 39, percent: true },
    ]);
  });
});
