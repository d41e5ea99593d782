import { describe, expect, it } from 'vitest';
import { buildPrefilter, occursAt, trieSource } from './prefilter.js';

describe('prefilter', () => {
  it('renders anchors as a trie where the longer continuation wins', () => {
    expect(trieSource(['sk-', 'secret', 'sig='])).toBe('s(?:k\\-|ecret|ig=)');
    expect(new RegExp(trieSource(['pass', 'passw']), 'gi').exec('PASSWORD')?.[0]).toBe('PASSW');
  });

  it('confirms exact anchors by case and keywords in any case', () => {
    const handle = () => undefined;
    const { byFirst } = buildPrefilter([{ anchors: ['AKIA'], keywords: ['api_key'], handle }]);
    const [exact] = byFirst.get('a')!.filter((e) => !e.caseless);
    const [caseless] = byFirst.get('a')!.filter((e) => e.caseless);
    expect([occursAt('xAKIA', exact!, 1), occursAt('xakia', exact!, 1)]).toEqual([true, false]);
    expect(occursAt('API_KEY=', caseless!, 0)).toBe(true);
  });

  it('refuses a caseless keyword that is not lowercase', () => {
    expect(() => buildPrefilter([{ keywords: ['Token'], handle: () => undefined }])).toThrow(TypeError);
  });
});
