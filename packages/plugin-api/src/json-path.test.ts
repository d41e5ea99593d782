import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPath, valueAt } from './json-path.js';

describe('jsonPath', () => {
  it('renders keys, indexes and quoted keys', () => {
    expect(jsonPath([])).toBe('$');
    expect(jsonPath(['edits', 2, 'old'])).toBe('$.edits[2].old');
    expect(jsonPath(['a b', 'c"d'])).toBe('$["a b"]["c\\"d"]');
  });

  it('always names a path that valueAt follows back to the same value', () => {
    const key = fc.oneof(fc.string({ maxLength: 6 }), fc.nat({ max: 3 }));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 5 }), fc.string(), (path, leaf) => {
        let root: unknown = leaf;
        for (const k of [...path].reverse()) root = typeof k === 'number' ? Object.assign(new Array(k + 1).fill(null), { [k]: root }) : { [k]: root };
        expect(valueAt(root, path)).toBe(leaf);
        expect(jsonPath(path).startsWith('$')).toBe(true);
        expect(jsonPath(path).split(/[.[]/).length).toBeGreaterThanOrEqual(path.length);
      }),
    );
  });
});
