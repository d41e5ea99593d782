import { z } from '@nodwyn/plugin-api';
import { capabilityError } from './errors.js';
import { withLinearPatterns } from './linear-pattern.js';

const MAX_SCHEMA_BYTES = 16 * 1024;
const cache = new Map<string, z.ZodType>();

/**
 * The argument checker of a capability's input schema (a JSON Schema for an object), built with zod's
 * JSON Schema reader so the guard's preflight validates a capability's arguments like any tool's.
 */
export function inputValidator(schema: Readonly<Record<string, unknown>>): z.ZodType {
  const text = JSON.stringify(schema);
  const cached = cache.get(text);
  if (cached) return cached;
  const built = buildValidator(schema, text);
  if (cache.size > 512) cache.clear();
  cache.set(text, built);
  return built;
}

function buildValidator(schema: Readonly<Record<string, unknown>>, text: string): z.ZodType {
  const invalid = (why: string, cause?: unknown) =>
    capabilityError('CAPABILITY_SCHEMA_INVALID', {
      operation: 'register_capability',
      failed_parameter: '$.input_schema',
      expected: 'a JSON Schema with "type": "object"',
      remediation: `The input schema ${why}. Give a JSON Schema object such as {"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}.`,
    }, cause);
  if (Buffer.byteLength(text) > MAX_SCHEMA_BYTES) throw invalid(`is larger than ${MAX_SCHEMA_BYTES} bytes`);
  if (schema.type !== 'object') throw invalid('does not describe an object (its "type" must be "object")');
  try {
    return withLinearPatterns(() => z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]));
  } catch (error) {
    throw invalid(`cannot be read: ${(error as Error).message}`, error);
  }
}

/** A short summary of an input schema for list_capabilities: `text: string (required), limit: number`. */
export function summariseSchema(schema: Readonly<Record<string, unknown>>): string {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parts = Object.entries(properties).map(([key, value]) => {
    const type = Array.isArray(value?.type) ? value.type.join('|') : typeof value?.type === 'string' ? value.type : 'any';
    return `${key}: ${type}${required.has(key) ? ' (required)' : ''}`;
  });
  return parts.length > 0 ? parts.join(', ') : 'no arguments';
}
