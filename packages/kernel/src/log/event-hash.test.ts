import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { GENESIS_HASH } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { canonicalJson, eventPreimage, hashEvent, hashEventText, sha256Hex } from './event-hash.js';

/** Rebuilds every object with its keys in a random order (fromEntries keeps `__proto__` an own key). */
function shuffleKeys(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, random));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, shuffleKeys(v, random)] as const);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [entries[i], entries[j]] = [entries[j] as (typeof entries)[number], entries[i] as (typeof entries)[number]];
  }
  return Object.fromEntries(entries);
}

const json = fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 4 });
const payloadArb = fc.dictionary(fc.string({ unit: 'grapheme' }), json, { maxKeys: 6 });

describe('canonicalJson', () => {
  it('matches the RFC 8785 example (number forms, escapes, key order)', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units, not by code points or locale', () => {
    // U+FB33 sorts after U+1D11E's lead surrogate (0xD834) in UTF-16 order, before it in code points.
    expect(canonicalJson({ '\uFB33': 1, '\u{1D11E}': 2, a: 3, B: 4 })).toBe('{"B":4,"a":3,"\u{1D11E}":2,"\uFB33":1}');
  });

  it('gives the same text whatever the key order (property)', () => {
    fc.assert(
      fc.property(json, fc.integer(), (value, seed) => {
        let state = seed;
        const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 + 1) % 1;
        expect(canonicalJson(shuffleKeys(value, random))).toBe(canonicalJson(value));
      }),
    );
  });

  it('is idempotent under parse and re-serialize (property)', () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });

  it.each([
    ['a function', { f: () => 1 }, '$.f'],
    ['NaN', { n: Number.NaN }, '$.n'],
    ['Infinity', { a: [1, Number.POSITIVE_INFINITY] }, '$.a[1]'],
    ['undefined in an array', { a: [undefined] }, '$.a[0]'],
    ['a Date', { d: new Date(0) }, '$.d'],
    ['a bigint', { b: 1n }, '$.b'],
    ['a lone surrogate', { s: 'x\uD800' }, '$.s'],
  ])('refuses %s and names where it is', (_label, value, path) => {
    expect(() => canonicalJson(value)).toThrow(path);
  });

  it('refuses a cycle', () => {
    const value: Record<string, unknown> = { a: 1 };
    value.self = { back: value };
    expect(() => canonicalJson(value)).toThrow(/cycle/);
  });
});

describe('event hashes', () => {
  const event = { session: 's-1', seq: 1, ts: '2025-01-01T00:00:00.000Z', type: 'message.user', actor: 'user', payload: { text: 'hi' }, prev: GENESIS_HASH };

  it('is sha256 over prev followed by the canonical event without its hash', () => {
    const canonical = '{"actor":"user","payload":{"text":"hi"},"prev":"' + GENESIS_HASH + '","seq":1,"session":"s-1","ts":"2025-01-01T00:00:00.000Z","type":"message.user"}';
    expect(eventPreimage(event)).toBe(GENESIS_HASH + canonical);
    expect(hashEvent(event)).toBe(createHash('sha256').update(GENESIS_HASH + canonical).digest('hex'));
    expect(hashEvent({ ...event, hash: 'ignored' } as typeof event)).toBe(hashEvent(event));
  });

  it('changes when any field changes', () => {
    const base = hashEvent(event);
    for (const changed of [{ seq: 2 }, { ts: 'x' }, { type: 'message.model' }, { actor: 'model' }, { payload: { text: 'hj' } }, { session: 's-2' }, { prev: '1'.repeat(64) }]) {
      expect(hashEvent({ ...event, ...changed })).not.toBe(base);
    }
  });

  it('hashEventText (the fast path) equals hashEvent for any session and payload (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), fc.integer({ min: 1, max: 2 ** 40 }), payloadArb, (session, seq, payload) => {
        const e = { ...event, session, seq, payload };
        expect(hashEventText(e, canonicalJson(payload))).toBe(hashEvent(e));
      }),
    );
  });

  it('refuses to hash a payload that is not plain JSON', () => {
    expect(() => hashEvent({ ...event, payload: { f: () => 1 } })).toThrow(TypeError);
  });

  it('sha256Hex hashes the concatenation of its parts', () => {
    expect(sha256Hex('ab', 'c')).toBe(sha256Hex('abc'));
  });
});
