import { Buffer } from 'node:buffer';

const STANDARD_BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Decodes standard, padded base64 as UTF-8; undefined when `value` is not exactly that. */
export function decodeBase64(value: string): string | undefined {
  if (value.length < 4 || value.length % 4 !== 0 || !STANDARD_BASE64.test(value)) return undefined;
  return Buffer.from(value, 'base64').toString('utf8');
}

/** True when `text` is printable ASCII (tabs and newlines allowed): decoded text, not binary. */
export function isPrintable(text: string): boolean {
  return /^[\x20-\x7e\t\r\n]*$/.test(text);
}

/** The class of the surest finding in `found`, if any. */
export function bestClass(found: readonly { class: string; priority: number }[]): string | undefined {
  let best: { class: string; priority: number } | undefined;
  for (const f of found) if (!best || f.priority > best.priority) best = f;
  return best?.class;
}
