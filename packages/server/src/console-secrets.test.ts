import { envelope } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { withoutValue } from './console-secrets.js';

describe('withoutValue', () => {
  it('cuts the value, and its JSON-escaped, base64, base64url and hex forms, from every string of an envelope', () => {
    const value = 'ab"c/d+?é';
    const bytes = Buffer.from(value);
    const dirty = envelope({
      category: 'VALIDATION_FAILED',
      code: 'SECRET_NAME_INVALID',
      received_value: `got ${value}`,
      expected: `not ${JSON.stringify(value)}`,
      remediation: `${bytes.toString('base64')} ${bytes.toString('base64url')} ${bytes.toString('hex')}`,
    });
    const clean = JSON.stringify(withoutValue(dirty, value));
    for (const form of [value, JSON.stringify(value).slice(1, -1), bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')]) expect(clean).not.toContain(form);
    expect(withoutValue(dirty, value)).toMatchObject({ status: 'error', category: 'VALIDATION_FAILED', received_value: 'got [REDACTED secret value]' });
  });
});
