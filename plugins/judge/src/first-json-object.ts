/**
 * The first JSON object in a model's answer, or undefined. Models wrap JSON in prose or code fences, so
 * every `{` is tried as a start, the object's end is found by matching braces outside strings, and the
 * first candidate that parses as an object wins.
 */
export function firstJsonObject(text: string): Record<string, unknown> | undefined {
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
    const value = end < 0 ? undefined : parse(text.slice(start, end + 1));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  }
  return undefined;
}

/** The index of the `}` closing the `{` at `start`, or -1 when the text ends first. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

function parse(candidate: string): unknown {
  try {
    return JSON.parse(candidate);
  } catch {
    // Not JSON (prose in braces, a template): the caller tries the next `{`.
    return undefined;
  }
}
