import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_VALUES_PER_SESSION, TaintRegistry, WINDOW } from './taint-registry.js';

const SECRET = 'AKIAQ3EXAMPLEZZ7K2PD/wJalrXUtnFEMI+K7MDENGbPxRfiCY';

function tracked(): TaintRegistry {
  const registry = new TaintRegistry();
  registry.remember('s', SECRET, ['aws-secret-key']);
  return registry;
}

describe('TaintRegistry', () => {
  it('finds a remembered value raw and in every common encoding', () => {
    const registry = tracked();
    const bytes = Buffer.from(SECRET);
    const texts = [
      `key=${SECRET}`,
      JSON.stringify({ k: SECRET }),
      encodeURIComponent(SECRET),
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      bytes.toString('base64'),
      bytes.toString('base64url'),
      Buffer.concat([Buffer.from('x'), bytes]).toString('base64'),
      Buffer.concat([Buffer.from('xy'), bytes, Buffer.from('tail')]).toString('base64'),
      [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
    ];
    for (const text of texts) expect(registry.tagsOf('s', `prefix ${text} suffix`), text).toEqual(['aws-secret-key']);
  });

  it('finds each half of a value split across two texts, but not a fragment shorter than the window', () => {
    const registry = tracked();
    const mid = Math.floor(SECRET.length / 2);
    expect(registry.tagsOf('s', SECRET.slice(0, mid))).toEqual(['aws-secret-key']);
    expect(registry.tagsOf('s', SECRET.slice(mid))).toEqual(['aws-secret-key']);
    expect(registry.tagsOf('s', SECRET.slice(3, 3 + WINDOW - 1))).toEqual([]);
  });

  it('unions tags, sorted and unique, and knows a value in every session (a secret is one wherever it was met)', () => {
    const registry = tracked();
    registry.remember('s', SECRET, ['l1', 'aws-secret-key']);
    expect(registry.tagsOf('s', SECRET)).toEqual(['aws-secret-key', 'l1']);
    expect(registry.tagsOf('other', SECRET)).toEqual(['aws-secret-key', 'l1']);
  });

  it('matches only remembered values, never the placeholders tagsOf also counts', () => {
    const registry = tracked();
    expect(registry.matches('s', 'AWS_KEY=[REDACTED aws-access-key]')).toEqual([]);
    expect(registry.matches('s', `x${SECRET.slice(5, 5 + WINDOW)}x`)).toEqual(['aws-secret-key']);
  });

  it('still catches a pinned (keychain) value after 2,500 flagged values, while the oldest flagged one is forgotten', () => {
    const registry = new TaintRegistry();
    registry.remember('s', SECRET, ['aws-secret-key'], { pinned: true });
    registry.remember('s', 'first-flagged-value-xyz', ['t0']);
    for (let i = 1; i <= 2_500; i++) registry.remember('s', `value-number-${i.toString().padStart(6, '0')}-xyz`, [`t${i}`]);
    expect(registry.matches('s', `key=${SECRET}`)).toEqual(['aws-secret-key']);
    expect(registry.matches('s', 'first-flagged-value-xyz')).toEqual([]);
  }, 60_000);

  it('redacts every stretch covered by a remembered value, in any spelling, and leaves the rest', () => {
    const registry = tracked();
    const b64 = Buffer.from(SECRET).toString('base64');
    const out = registry.redact('s', `a ${SECRET} b ${b64} c ${SECRET.slice(0, 20)} d`);
    expect(out).toMatch(/^a \[REDACTED aws-secret-key\] b .*\[REDACTED aws-secret-key\].* c \[REDACTED aws-secret-key\] d$/);
    expect(out).not.toContain(SECRET.slice(0, 12));
    expect(out).not.toContain(b64.slice(4, 16));
    expect(registry.redact('s', 'nothing here')).toBe('nothing here');
  });

  it('tags text that carries L1 placeholders with their classes', () => {
    expect(new TaintRegistry().tagsOf('any', 'AWS_KEY=[REDACTED aws-access-key] and [REDACTED jwt]')).toEqual(['aws-access-key', 'jwt']);
  });

  it('ignores values shorter than the window', () => {
    const registry = new TaintRegistry();
    registry.remember('s', 'short', ['x']);
    expect(registry.tagsOf('s', 'a short text')).toEqual([]);
  });

  it('forgets the oldest value past the per-session cap', () => {
    const registry = new TaintRegistry();
    for (let i = 0; i <= MAX_VALUES_PER_SESSION; i++) registry.remember('s', `value-number-${i.toString().padStart(6, '0')}-xyz`, [`t${i}`]);
    expect(registry.tagsOf('s', 'value-number-000000-xyz')).not.toContain('t0');
    expect(registry.tagsOf('s', `value-number-${MAX_VALUES_PER_SESSION.toString().padStart(6, '0')}-xyz`)).toContain(`t${MAX_VALUES_PER_SESSION}`);
  }, 60_000);

  it('tags no text that holds no window of the value or its spellings', () => {
    const registry = tracked();
    // Texts over an alphabet the value and its encodings never use cannot contain one of their windows.
    fc.assert(
      fc.property(fc.stringMatching(/^[!#&()*,:;<>?@^`{|}~ ]{0,200}$/), (text) => {
        expect(registry.tagsOf('s', text)).toEqual([]);
      }),
    );
  });
});
