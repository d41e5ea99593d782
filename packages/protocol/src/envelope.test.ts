import { describe, expect, it } from 'vitest';
import { CATEGORIES, EnvelopeSchema } from './envelope.js';

const base = {
  status: 'error',
  category: 'NOT_FOUND',
  operation: 'read_file',
  http_status: null,
  code: 'FILE_NOT_FOUND',
  failed_parameter: '$.path',
  received_value: 'a.txt',
  expected: null,
  remediation: 'Check the path.',
  retryable: 'after_remediation',
  retry_after_ms: null,
  next_action: null,
  request_id: null,
  trace: { attempts: 0 },
  plugin: null,
};

describe('EnvelopeSchema', () => {
  it('accepts the one envelope shape', () => {
    expect(EnvelopeSchema.parse(base)).toEqual(base);
  });

  it('keeps the category set closed', () => {
    expect(CATEGORIES).toHaveLength(16);
    expect(EnvelopeSchema.safeParse({ ...base, category: 'OOPS' }).success).toBe(false);
  });

  it('refuses extra fields, such as a stack trace', () => {
    expect(EnvelopeSchema.safeParse({ ...base, stack: 'Error: x\n    at f (a.ts:1:1)' }).success).toBe(false);
  });

  it('refuses a missing field and an unknown retry tier', () => {
    const { remediation: _, ...withoutRemediation } = base;
    expect(EnvelopeSchema.safeParse(withoutRemediation).success).toBe(false);
    expect(EnvelopeSchema.safeParse({ ...base, retryable: 'sometimes' }).success).toBe(false);
  });
});
