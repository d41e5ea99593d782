import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, seal } from './sealing.js';

const key = randomBytes(32);

describe('seal and open', () => {
  it('round-trips a value bound to its AAD', () => {
    expect(open(key, seal(key, 'ghp_value ✓', 'gh\u0000github'), 'gh\u0000github')).toBe('ghp_value ✓');
  });

  it('uses a fresh 12-byte IV each time, so equal values never look equal', () => {
    const a = seal(key, 'same', 'aad');
    const b = seal(key, 'same', 'aad');
    expect(Buffer.from(a.iv, 'base64')).toHaveLength(12);
    expect(a.iv).not.toBe(b.iv);
    expect(a.data).not.toBe(b.data);
  });

  it('refuses another AAD, another key, or any flipped byte', () => {
    const sealed = seal(key, 'value', 'a\u0000github');
    expect(open(key, sealed, 'b\u0000github')).toBeUndefined();
    expect(open(key, sealed, 'a\u0000aws')).toBeUndefined();
    expect(open(randomBytes(32), sealed, 'a\u0000github')).toBeUndefined();
    const data = Buffer.from(sealed.data, 'base64');
    data[0]! ^= 1;
    expect(open(key, { ...sealed, data: data.toString('base64') }, 'a\u0000github')).toBeUndefined();
    const tag = Buffer.from(sealed.tag, 'base64');
    tag[15]! ^= 1;
    expect(open(key, { ...sealed, tag: tag.toString('base64') }, 'a\u0000github')).toBeUndefined();
  });
});
