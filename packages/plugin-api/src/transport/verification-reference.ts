/** What `$args.<path>` and `$response.<path>` references resolve against. */
export interface ReferenceScope {
  readonly args: unknown;
  readonly response?: unknown;
}

/** A reference that did not resolve; it never matches anything. */
export const UNRESOLVED: unique symbol = Symbol('unresolved');

/**
 * Resolves a verify entry's value: a string "$args.<path>" or "$response.<path>" (paths as in
 * failed_parameter: "body.name", "items[0].id") is looked up, anything else is itself. A reference
 * to something absent is UNRESOLVED (docs/architecture.md §8).
 */
export function resolveReference(value: unknown, scope: ReferenceScope): unknown {
  if (typeof value !== 'string') return value;
  const match = /^\$(args|response)(?:\.(.+))?$/.exec(value);
  if (match === null) return value;
  const root = match[1] === 'args' ? scope.args : scope.response;
  return match[2] === undefined ? (root ?? UNRESOLVED) : valueAtPath(root, match[2]);
}

/** The value at a dotted path with [index] steps, or UNRESOLVED when a step is missing. */
export function valueAtPath(root: unknown, path: string): unknown {
  let current = root;
  for (const step of path.match(/[^.[\]]+/g) ?? []) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, step)) return UNRESOLVED;
    current = (current as Record<string, unknown>)[step];
  }
  return current === undefined ? UNRESOLVED : current;
}

/** Whether an entry refers to the mutation's answer (then it cannot be used without that answer). */
export function mentionsResponse(value: unknown): boolean {
  if (typeof value === 'string') return /^\$response(?:\.|$)/.test(value);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(mentionsResponse);
  return false;
}
