import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { preflight } from './preflight.js';

// A random nested shape of objects and arrays ending in a string leaf, with the path to the leaf.
const shape = fc.array(fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/), fc.constantFrom(' key', 'a.b', '"q"'), fc.nat({ max: 3 })), { maxLength: 5 });

function schemaFor(path: readonly (string | number)[]): z.ZodType {
  let schema: z.ZodType = z.string();
  for (const key of [...path].reverse()) schema = typeof key === 'number' ? z.array(schema) : z.object({ [key]: schema });
  return schema;
}

// Builds data along `path` with `leaf` at its end; every other array element is valid, so the only
// failure is the leaf.
function valueFor(path: readonly (string | number)[], leaf: unknown): unknown {
  let value = leaf;
  let valid: unknown = 'ok';
  for (const key of [...path].reverse()) {
    if (typeof key === 'number') {
      const filler = valid;
      value = Array.from({ length: key + 1 }, (_, i) => (i === key ? value : filler));
      valid = Array.from({ length: key + 1 }, () => filler);
    } else {
      value = { [key]: value };
      valid = { [key]: valid };
    }
  }
  return value;
}

describe('preflight', () => {
  it('names the exact JSON path of a wrongly typed leaf, whatever the nesting', () => {
    fc.assert(
      fc.property(shape, fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)), (path, wrong) => {
        const result = preflight(schemaFor(path), valueFor(path, wrong), 'tool');
        expect(result.ok).toBe(false);
        if (result.ok) return;
        const expected = path.reduce<string>((out, k) => (typeof k === 'number' ? `${out}[${k}]` : /^[A-Za-z_$][\w$]*$/.test(k) ? `${out}.${k}` : `${out}[${JSON.stringify(k)}]`), '$');
        expect(result.envelope.failed_parameter).toBe(expected);
        expect(result.envelope.expected).toBe('string');
        expect(result.envelope.received_value).toBe(JSON.stringify(wrong));
      }),
    );
  });

  it('accepts what the schema accepts', () => {
    fc.assert(
      fc.property(shape, fc.string(), (path, leaf) => {
        expect(preflight(schemaFor(path), valueFor(path, leaf), 'tool').ok).toBe(true);
      }),
    );
  });

  it('points an unknown key of a strict object at the key itself', () => {
    const result = preflight(z.object({ path: z.string() }).strict(), { path: 'a', pth: 'b' }, 'read_file');
    expect(result.ok ? undefined : [result.envelope.failed_parameter, result.envelope.expected]).toEqual(['$.pth', 'no key named pth']);
  });

  it('cuts a long received value to 200 characters', () => {
    const result = preflight(z.object({ n: z.number() }), { n: 'x'.repeat(1000) }, 'tool');
    expect(result.ok ? 0 : result.envelope.received_value?.length).toBe(201);
  });
});
