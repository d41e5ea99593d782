/**
 * The conditions nodwyn tries, in order of preference, when a plugin's package.json has an `exports`
 * map: first the ones Node's `import()` uses (the host imports plugins), then the ones `require` uses,
 * so a CommonJS-only plugin still loads (`import()` of a CommonJS file works).
 */
export const EXPORT_CONDITION_SETS: readonly (readonly string[])[] = [
  ['node', 'import', 'default'],
  ['node', 'require', 'default'],
];

/**
 * The file (relative, `./…`) that the `.` entry of an `exports` map names under `conditions`, as Node
 * resolves it: a string is the target; an array, its first usable element; an object of conditions, the
 * first key (in the map's own order) that is among `conditions`; `null` excludes. Undefined when nothing
 * matches.
 */
export function exportedRoot(exports: unknown, conditions: readonly string[]): string | undefined {
  return target(rootEntry(exports), conditions);
}

/**
 * Every condition the map's `.` entry mentions, nested ones too, for a message that says what the
 * package offers (`require`, `types`, …). Empty when it has no `.` entry.
 */
export function exportConditions(exports: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) {
      for (const [key, nested] of Object.entries(value)) {
        found.add(key);
        visit(nested);
      }
    }
  };
  visit(rootEntry(exports));
  return [...found];
}

/** Whether `exports` has an entry for the package's root (`.`), in either of its spellings. */
export function hasRootEntry(exports: unknown): boolean {
  return rootEntry(exports) !== undefined;
}

// `"exports": "./x.js"` and `"exports": { "import": … }` are sugar for `{ ".": … }`; keys starting with
// "." are subpaths, and a map of subpaths without "." exports nothing at the root.
function rootEntry(exports: unknown): unknown {
  if (!isObject(exports)) return exports ?? undefined;
  const keys = Object.keys(exports);
  return keys.some((key) => key.startsWith('.')) ? exports['.'] : exports;
}

function target(value: unknown, conditions: readonly string[]): string | undefined {
  if (typeof value === 'string') return value.startsWith('./') ? value : undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = target(item, conditions);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  for (const [key, nested] of Object.entries(value)) {
    if (!conditions.includes(key)) continue;
    const found = target(nested, conditions);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
