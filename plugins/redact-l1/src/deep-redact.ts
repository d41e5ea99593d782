/**
 * Applies `redactText` to every string inside a JSON-like value, keys included (a model can put a
 * secret in an argument's name as easily as in its value). Returns the same object when nothing
 * changed, so events without secrets are not copied.
 */
export function redactDeep(value: unknown, redactText: (text: string) => string): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => redactDeep(item, redactText));
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (value === null || typeof value !== 'object') return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const safeKey = uniqueKey(out, redactText(key));
    const safeItem = redactDeep(item, redactText);
    changed ||= safeKey !== key || safeItem !== item;
    out[safeKey] = safeItem;
  }
  return changed ? out : value;
}

/** Two keys that redact to the same text both stay: the later one gets a `#2`, `#3`… suffix. */
function uniqueKey(out: Record<string, unknown>, key: string): string {
  if (!Object.hasOwn(out, key)) return key;
  let n = 2;
  while (Object.hasOwn(out, `${key}#${n}`)) n++;
  return `${key}#${n}`;
}
