import { describe, expect, it } from 'vitest';
import { createScrubber, encodedForms } from './scrub.js';

const VALUE = 'tok/en+va=lue"é 1234567890';

describe('the scrubber', () => {
  it.each([
    ['raw', VALUE],
    ['JSON-escaped', JSON.stringify(VALUE).slice(1, -1)],
    ['URL-encoded', encodeURIComponent(VALUE)],
    ['URL-encoded, lower-case hex', encodeURIComponent(VALUE).toLowerCase()],
    ['form-encoded', new URLSearchParams({ k: VALUE }).toString().slice(2)],
    ['base64', Buffer.from(VALUE).toString('base64')],
    ['base64url', Buffer.from(VALUE).toString('base64url')],
    ['hex', Buffer.from(VALUE).toString('hex')],
    ['HEX', Buffer.from(VALUE).toString('hex').toUpperCase()],
  ])('removes the %s form', (_name, form) => {
    const scrub = createScrubber([{ value: VALUE, class: 'demo' }]);
    expect(scrub(`before ${form} after`)).toBe('before [REDACTED demo] after');
  });

  it.each([1, 2, 3, 4, 5])('removes the value from base64 of a longer text, %i bytes in', (offset) => {
    const encoded = Buffer.from(`${'x'.repeat(offset)}${VALUE}yz`).toString('base64');
    const scrubbed = createScrubber([{ value: VALUE, class: 'demo' }])(encoded);
    expect(scrubbed).toContain('[REDACTED demo]');
    // What is left encodes the neighbours: their own characters, one mixed character at each edge, padding.
    expect(scrubbed.replace('[REDACTED demo]', '').length).toBeLessThanOrEqual(Math.ceil(((offset + 2) * 4) / 3) + 4);
  });

  it('takes longer forms first and reports the longest', () => {
    const scrub = createScrubber([
      { value: 'abc', class: 'short' },
      { value: 'xxabcxx', class: 'long' },
    ]);
    expect(scrub('xxabcxx abc')).toBe('[REDACTED long] [REDACTED short]');
    expect(scrub.longest).toBe(Math.max(...encodedForms('xxabcxx').map((f) => f.length)));
  });

  it('never turns an empty value into a pattern', () => {
    expect(createScrubber([{ value: '', class: 'empty' }])('unchanged')).toBe('unchanged');
  });
});
