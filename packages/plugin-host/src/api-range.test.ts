import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkApiRange, isVagueRange } from './api-range.js';

const version = fc.tuple(fc.nat(50), fc.nat(50), fc.nat(50)).map((parts) => parts.join('.'));

describe('isVagueRange', () => {
  it.each(['', ' ', '*', 'x', 'X', '>=0.0.0', '>=0.1.0', '>0.1.0', '^0.1.0 || >=2.0.0'])('calls %j vague', (range) => {
    expect(isVagueRange(range)).toBe(true);
  });

  it.each(['^0.1.0', '~0.1.0', '0.1.0', '0.1.x', '0.x', '<1.0.0', '>=0.1.0 <0.3.0', '^0.1.0 || ^1.0.0', 'banana'])('does not call %j vague', (range) => {
    expect(isVagueRange(range)).toBe(false);
  });

  it('treats every caret range as bounded and every bare >= range as vague', () => {
    fc.assert(fc.property(version, (v) => !isVagueRange(`^${v}`) && isVagueRange(`>=${v}`)));
  });
});

describe('checkApiRange', () => {
  it('accepts a bounded range the host satisfies and refuses one it does not', () => {
    expect(checkApiRange('p', '^0.1.0', '0.1.3')).toBeUndefined();
    expect(checkApiRange('p', '^0.1.0', '0.2.0')).toMatchObject({ code: 'PLUGIN_API_INCOMPATIBLE', plugin: 'p' });
  });
});
