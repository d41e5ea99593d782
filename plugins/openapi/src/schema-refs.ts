/** A JSON object as the document holds it. */
export type JsonObject = Record<string, unknown>;

/** Whether a value of the document is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The document's security schemes by name (`components.securitySchemes`), empty when it has none. */
export function securitySchemes(document: JsonObject): JsonObject {
  const components = isObject(document.components) ? document.components : {};
  return isObject(components.securitySchemes) ? components.securitySchemes : {};
}

/** The value an internal pointer (`#/components/schemas/Pet`) names in `root`, or undefined. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const steps = ref.slice(1).split('/').slice(1).map((step) => decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~'));
  let value = root;
  for (const step of steps) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as JsonObject)[step];
  }
  return value;
}

/** Follows `$ref`s of an object (not below it) until a value without one; undefined when one dangles or loops. */
export function deref(root: unknown, value: unknown): unknown {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    if (hops > 32) return undefined;
    const { $ref, ...siblings } = current;
    const target = resolvePointer(root, $ref as string);
    if (target === undefined) return undefined;
    // OpenAPI 3.1 keeps summary/description next to a $ref; they win over the target's.
    current = isObject(target) && Object.keys(siblings).length > 0 ? { ...target, ...siblings } : target;
  }
  return current;
}
