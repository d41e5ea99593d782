import { describe, expect, it } from 'vitest';
import { redactDeep } from './deep-redact.js';

const mask = (s: string) => s.replaceAll('secret', '[X]');

describe('redactDeep', () => {
  it('redacts every string, keys included, at any depth', () => {
    expect(redactDeep({ a: ['x secret', { secret: 1, n: null }], b: 2 }, mask)).toEqual({ a: ['x [X]', { '[X]': 1, n: null }], b: 2 });
  });

  it('returns the same object when nothing changed', () => {
    const value = { a: ['x', { b: 1 }] };
    expect(redactDeep(value, mask)).toBe(value);
  });

  it('keeps both entries when two keys redact alike', () => {
    expect(redactDeep({ secret: 1, '[X]': 2 }, mask)).toEqual({ '[X]': 1, '[X]#2': 2 });
  });
});
