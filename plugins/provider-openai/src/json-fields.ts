/**
 * Readers for JSON from a server nodwyn does not control: an OpenAI-compatible server may omit a field,
 * send null, or send another type, and a stream must not crash on that.
 */

/** `value` as an object, or an empty one. */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `value` when it is a string. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `value` as a token count: a finite number, truncated and never negative; undefined otherwise. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : undefined;
}

/** `value` when it is an array, else an empty one. */
export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
