import { z } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { requestSchema } from './request-schema.js';

const root = {
  components: {
    schemas: {
      Node: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/components/schemas/Node' } } },
      User: {
        type: 'object',
        required: ['id', 'name'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string', nullable: true },
          password: { type: 'string', 'x-agent-sensitive': true },
          age: { type: 'integer', minimum: 0, exclusiveMinimum: true },
        },
      },
    },
  },
};

describe('request schemas', () => {
  it('rewrites OpenAPI 3.0 keywords, leaves readOnly properties out and collects sensitive paths', () => {
    const facts = { sensitive: [] as string[] };
    const schema = requestSchema(root, { $ref: '#/components/schemas/User' }, { openapi30: true, prefix: 'body', facts });
    expect(schema).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: ['string', 'null'] }, password: { type: 'string' }, age: { type: 'integer', exclusiveMinimum: 0 } },
    });
    expect(facts.sensitive).toEqual(['body.password']);
    const parsed = z.fromJSONSchema(schema as never);
    expect(parsed.safeParse({ name: null, age: 1 }).success).toBe(true);
    expect(parsed.safeParse({ name: 'a', age: 0 }).success).toBe(false);
    expect(parsed.safeParse({ name: 'a', extra: 1 }).success).toBe(false);
  });

  it('turns a recursive reference into "any" where it loops', () => {
    const schema = requestSchema(root, { $ref: '#/components/schemas/Node' }, { openapi30: false, prefix: 'body' });
    expect(schema).toEqual({ type: 'object', properties: { name: { type: 'string' }, child: {} } });
  });
});
