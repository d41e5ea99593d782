import { describe, expect, it } from 'vitest';
import { inputValidator } from './input-schema.js';

const long = 'a'.repeat(5000);

// With zod's own `new RegExp(pattern)` each of these checks backtracks exponentially in the input's length:
// the test never finishes and the host hangs with it.
describe('a capability input schema with model-written patterns', () => {
  it('checks a catastrophic `pattern` in linear time, with the right answer', () => {
    const validator = inputValidator({ type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$' } }, required: ['text'] });
    expect(validator.safeParse({ text: `${long}!` }).success).toBe(false);
    expect(validator.safeParse({ text: long }).success).toBe(true);
  });

  it('checks patterns nested in combinators and in patternProperties keys in linear time', () => {
    const validator = inputValidator({
      type: 'object',
      properties: { tags: { type: 'array', items: { anyOf: [{ type: 'string', pattern: '^(a|aa)*b$' }, { type: 'number' }] } } },
      patternProperties: { '^(x+x+)+y$': { type: 'string' } },
      additionalProperties: false,
    });
    expect(validator.safeParse({ tags: [`${long}b`, 3] }).success).toBe(true);
    expect(validator.safeParse({ tags: [long] }).success).toBe(false);
    expect(validator.safeParse({ [`${'x'.repeat(5000)}y`]: 'ok' }).success).toBe(true);
    expect(validator.safeParse({ ['x'.repeat(5000)]: 'ok' }).success).toBe(false);
  });

  it('checks a pattern reached through a recursive $ref in linear time', () => {
    const validator = inputValidator({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' }, child: { $ref: '#/$defs/node' } } } },
    });
    expect(validator.safeParse({ tree: { name: 'aa', child: { name: `${long}!` } } }).success).toBe(false);
    expect(validator.safeParse({ tree: { name: 'aa', child: { name: long } } }).success).toBe(true);
  });

  it('refuses a backreference or lookaround with VALIDATION_FAILED naming the pattern', () => {
    for (const pattern of ['(a)\\1', 'a(?=b)']) {
      const schema = { type: 'object', properties: { text: { type: 'string', pattern } } };
      expect(() => inputValidator(schema)).toThrow(expect.objectContaining({
        envelope: expect.objectContaining({ category: 'VALIDATION_FAILED', code: 'CAPABILITY_SCHEMA_INVALID', remediation: expect.stringContaining(`"${pattern}"`) }),
      }));
    }
  });

  it('puts the global RegExp back, also when the schema is refused', () => {
    const original = RegExp;
    expect(() => inputValidator({ type: 'object', properties: { t: { type: 'string', pattern: '(?<=x)' } } })).toThrow();
    expect(globalThis.RegExp).toBe(original);
    expect(/a+/.test('aa')).toBe(true);
  });
});
