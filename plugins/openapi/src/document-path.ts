/** A key of a JSON path step: an object key or an array index. */
type Step = string | number;

/**
 * The JSON path of the value that starts on `line` (1-based) of `JSON.stringify(root, null, 2)`. The
 * parser's validation messages point at a line of that rendering (a code frame), not at a path; this walks
 * the same rendering to name the place in the document. Undefined past the end.
 */
export function pathAtLine(root: unknown, line: number): Step[] | undefined {
  let current = 1;
  const seen = new Set<object>();
  const walk = (value: unknown, path: Step[]): Step[] | undefined => {
    if (current === line) return path;
    if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
    const entries: [Step, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item === undefined ? null : item])
      : Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== 'function');
    if (entries.length === 0) return undefined;
    seen.add(value);
    for (const [key, item] of entries) {
      current += 1;
      const found = walk(item, [...path, key]);
      if (found) return found;
    }
    seen.delete(value);
    // The closing bracket's line belongs to the container.
    current += 1;
    return current === line ? path : undefined;
  };
  return walk(root, []);
}

/** The line a validator's code frame marks (`> 11 |`), or undefined when the message carries none. */
export function markedLine(message: string): number | undefined {
  const match = /^>\s*(\d+)\s*\|/m.exec(message);
  return match ? Number(match[1]) : undefined;
}
