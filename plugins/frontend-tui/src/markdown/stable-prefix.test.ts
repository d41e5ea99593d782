import { describe, expect, it } from 'vitest';
import { stablePrefixLength } from './stable-prefix.js';

describe('stablePrefixLength', () => {
  it('ends after the last blank line', () => {
    const text = 'One.\n\nTwo.\n\nThree is stre';
    expect(text.slice(0, stablePrefixLength(text))).toBe('One.\n\nTwo.\n\n');
  });

  it('never ends inside an open code fence', () => {
    const text = 'Intro.\n\n```ts\nconst a = 1;\n\nconst b';
    expect(text.slice(0, stablePrefixLength(text))).toBe('Intro.\n\n');
  });

  it('counts a closed fence as finished', () => {
    const text = '```\na\n\nb\n```\n\nnext';
    expect(text.slice(0, stablePrefixLength(text))).toBe('```\na\n\nb\n```\n\n');
  });

  it('is 0 for text with no blank line yet', () => {
    expect(stablePrefixLength('just one paragraph')).toBe(0);
  });
});
