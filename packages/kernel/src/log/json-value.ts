/** Deepest nesting a logged payload may have; deeper values would overflow the canonicalizer's recursion. */
export const JSON_MAX_DEPTH = 128;

/** Why a value is not plain JSON, and where (`$.a[2].b`). */
export interface JsonProblem {
  readonly path: string;
  readonly reason: string;
}

interface Found {
  readonly segments: (string | number)[];
  readonly reason: string;
}

/** Matches a lone UTF-16 surrogate (under the `u` flag a valid pair is one code point, not `\p{Cs}`). */
export const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Finds the first part of `value` that JSON cannot carry without changing it: functions, symbols,
 * bigints, `undefined` inside arrays (JSON would turn it into `null`), array holes, non-finite numbers,
 * strings with lone surrogates, cycles, and objects that are not plain (a `Date`, a `Map`, a class
 * instance: JSON would flatten them through `toJSON` or lose them). An object property whose value is
 * `undefined` is allowed: JSON and RFC 8785 omit it, which is how an absent optional field is written.
 */
export function findJsonProblem(value: unknown): JsonProblem | undefined {
  const found = walk(value, 0, new Set());
  if (!found) return undefined;
  const path = found.segments.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`));
  return { path: `$${path.join('')}`, reason: found.reason };
}

/** True for objects whose prototype is `Object.prototype` or `null`. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function walk(value: unknown, depth: number, ancestors: Set<object>): Found | undefined {
  switch (typeof value) {
    case 'string':
      return LONE_SURROGATE.test(value) ? at('a string with a lone UTF-16 surrogate') : undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : at(`a non-finite number (${String(value)})`);
    case 'boolean':
      return undefined;
    case 'object':
      return value === null ? undefined : walkObject(value, depth, ancestors);
    default:
      return at(`a ${typeof value}, which JSON cannot carry`);
  }
}

function walkObject(value: object, depth: number, ancestors: Set<object>): Found | undefined {
  if (depth >= JSON_MAX_DEPTH) return at(`nesting deeper than ${JSON_MAX_DEPTH} levels`);
  // Only an ancestor makes a cycle; the same object twice in sibling positions is fine JSON.
  if (ancestors.has(value)) return at('a cycle (an object that contains itself)');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return walkArray(value, depth, ancestors);
    if (!isPlainObject(value)) return at(`a ${value.constructor?.name ?? 'non-plain'} object; only plain objects, arrays and primitives are JSON`);
    for (const key of Object.keys(value)) {
      if (LONE_SURROGATE.test(key)) return at(`a key with a lone UTF-16 surrogate`);
      const item = value[key];
      if (item === undefined) continue;
      const found = walk(item, depth + 1, ancestors);
      if (found) return prefix(key, found);
    }
    return undefined;
  } finally {
    ancestors.delete(value);
  }
}

function walkArray(value: readonly unknown[], depth: number, ancestors: Set<object>): Found | undefined {
  for (let i = 0; i < value.length; i++) {
    if (!(i in value)) return prefix(i, at('an array hole'));
    const item = value[i];
    if (item === undefined) return prefix(i, at('undefined inside an array (JSON would write null)'));
    const found = walk(item, depth + 1, ancestors);
    if (found) return prefix(i, found);
  }
  return undefined;
}

function at(reason: string): Found {
  return { segments: [], reason };
}

function prefix(segment: string | number, found: Found): Found {
  found.segments.unshift(segment);
  return found;
}
