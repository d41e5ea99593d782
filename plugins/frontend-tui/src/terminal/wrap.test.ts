import { describe, expect, it } from 'vitest';
import { lineText, wrapHard, wrapSpans } from './wrap.js';

const text = (lines: ReturnType<typeof wrapSpans>): string[] => lines.map(lineText);

describe('wrapSpans', () => {
  it('wraps words at spaces, drops the spaces at a wrap, and cuts a word longer than the line', () => {
    expect(text(wrapSpans([{ text: 'the quick brown fox' }], 10))).toEqual(['the quick', 'brown fox']);
    expect(text(wrapSpans([{ text: 'abcdefghijkl' }], 5))).toEqual(['abcde', 'fghij', 'kl']);
  });

  it('keeps the indentation a line of the text starts with, and gives wrapped lines the hanging prefix', () => {
    expect(text(wrapSpans([{ text: 'Keys\n  Enter  send it now' }], 14))).toEqual(['Keys', '  Enter  send', 'it now']);
    expect(text(wrapSpans([{ text: 'one two three' }], 8, { first: [{ text: '• ' }], rest: [{ text: '  ' }] }))).toEqual(['• one', '  two', '  three']);
  });

  it('counts wide characters as two columns', () => {
    expect(text(wrapSpans([{ text: '漢字漢字 漢字' }], 8))).toEqual(['漢字漢字', '漢字']);
  });

  it('keeps styles and merges neighbours of the same style', () => {
    const bold = { bold: true };
    expect(wrapSpans([{ text: 'a ', style: bold }, { text: 'b', style: bold }], 10)).toEqual([[{ text: 'a b', style: bold }]]);
  });
});

describe('wrapHard', () => {
  it('cuts code at the width and keeps every character, spaces included', () => {
    expect(wrapHard([{ text: '  if (x) {' }], 5).map(lineText)).toEqual(['  if ', '(x) {']);
  });
});
