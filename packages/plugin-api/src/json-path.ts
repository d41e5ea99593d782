const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Renders a path (as zod reports it) as the JSON path an envelope's `failed_parameter` carries:
 * `['edits', 2, 'old']` → `$.edits[2].old`; keys that are not identifiers are quoted (`$["a b"]`).
 */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    const name = String(key);
    return IDENTIFIER.test(name) ? `${out}.${name}` : `${out}[${JSON.stringify(name)}]`;
  }, '$');
}

/** The value at `path` inside `root`, or undefined when the path leaves the data. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
