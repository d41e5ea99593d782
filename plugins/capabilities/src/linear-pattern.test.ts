import { describe, expect, it } from 'vitest';
import { withLinearPatterns } from './linear-pattern.js';

describe('withLinearPatterns', () => {
  it('answers exec, match and search with RE2, never with the placeholder that matches everything', () => {
    const pattern = withLinearPatterns(() => new RegExp('b+c'));
    expect(pattern.test('xbbc')).toBe(true);
    expect(pattern.exec('xbbcz')).toMatchObject({ 0: 'bbc', index: 1 });
    expect(pattern.exec('nothing here')).toBeNull();
    expect('abbc'.match(pattern)?.[0]).toBe('bbc');
    expect('zzz'.search(pattern)).toBe(-1);
  });
});
