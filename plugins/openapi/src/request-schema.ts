import { deref, isObject, type JsonObject } from './schema-refs.js';

/** Deepest nesting converted; below it a value is accepted as any JSON (the server still validates). */
const MAX_DEPTH = 12;

/** Keywords the model's JSON Schema and the zod conversion do not need (or would misread). */
const DROPPED = new Set(['example', 'examples', 'discriminator', 'xml', 'externalDocs', 'deprecated', 'readOnly', 'writeOnly', 'nullable', '$schema', '$id', 'contentMediaType', 'contentEncoding']);
const NESTED_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const NESTED_ONE = ['items', 'not', 'additionalProperties', 'contains', 'propertyNames', 'if', 'then', 'else'];

/** What converting a request schema found besides the schema. */
export interface SchemaFacts {
  /** Paths (below `prefix`) of properties marked `x-agent-sensitive: true`. */
  readonly sensitive: string[];
}

interface Walk {
  readonly root: unknown;
  readonly openapi30: boolean;
  readonly stack: Set<object>;
  readonly facts: SchemaFacts;
}

/**
 * Turns an OpenAPI schema into the self-contained JSON Schema of a request value: references inlined (a
 * recursive one becomes "any" where it loops), OpenAPI 3.0's `nullable` and boolean exclusive bounds
 * rewritten to JSON Schema 2020-12, `readOnly` properties left out (a request never sends them),
 * extension and documentation-only keywords dropped. Properties marked `x-agent-sensitive` are
 * collected as paths under `prefix` (`body.password`).
 */
export function requestSchema(root: unknown, schema: unknown, options: { openapi30: boolean; prefix: string; facts?: SchemaFacts }): JsonObject {
  const facts = options.facts ?? { sensitive: [] };
  return convert({ root, openapi30: options.openapi30, stack: new Set(), facts }, schema, options.prefix, 0);
}

function convert(walk: Walk, raw: unknown, path: string, depth: number): JsonObject {
  const schema = deref(walk.root, raw);
  if (!isObject(schema) || depth > MAX_DEPTH || walk.stack.has(schema)) return {};
  walk.stack.add(schema);
  try {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      if (DROPPED.has(key) || key.startsWith('x-') || key === 'properties' || key === 'required') continue;
      if (NESTED_LISTS.includes(key) && Array.isArray(value)) out[key] = value.map((item) => convert(walk, item, path, depth + 1));
      else if (NESTED_ONE.includes(key) && isObject(value)) out[key] = convert(walk, value, key === 'items' ? `${path}[]` : path, depth + 1);
      else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') continue;
      else out[key] = value;
    }
    if (walk.openapi30) bounds30(schema, out);
    properties(walk, schema, out, path, depth);
    if (walk.openapi30 && schema.nullable === true) return nullable(out);
    return out;
  } finally {
    walk.stack.delete(schema);
  }
}

function bounds30(schema: JsonObject, out: JsonObject): void {
  if (schema.exclusiveMinimum === true && typeof schema.minimum === 'number') {
    out.exclusiveMinimum = schema.minimum;
    delete out.minimum;
  }
  if (schema.exclusiveMaximum === true && typeof schema.maximum === 'number') {
    out.exclusiveMaximum = schema.maximum;
    delete out.maximum;
  }
}

function properties(walk: Walk, schema: JsonObject, out: JsonObject, path: string, depth: number): void {
  if (!isObject(schema.properties)) return;
  const props: JsonObject = {};
  const skipped = new Set<string>();
  for (const [name, value] of Object.entries(schema.properties)) {
    const target = deref(walk.root, value);
    if (isObject(target) && target.readOnly === true) {
      skipped.add(name);
      continue;
    }
    const child = `${path}.${name}`;
    if (isObject(target) && target['x-agent-sensitive'] === true) walk.facts.sensitive.push(child);
    props[name] = convert(walk, value, child, depth + 1);
  }
  out.properties = props;
  if (Array.isArray(schema.required)) {
    const required = schema.required.filter((name): name is string => typeof name === 'string' && !skipped.has(name) && name in props);
    if (required.length > 0) out.required = required;
  }
}

function nullable(schema: JsonObject): JsonObject {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...schema.enum, null] };
  return { anyOf: [schema, { type: 'null' }] };
}
