/**
 * The spellings of a value that a model or a program commonly produces when it moves it: raw, JSON-escaped,
 * percent-encoded, hex, and base64 (standard and url-safe) at each of the three byte alignments it can have
 * inside a longer base64 text. Only the parts that do not depend on neighbouring bytes are returned.
 */
export function spellings(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  const out = new Set<string>([
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    percentAll(bytes),
    percentAll(bytes).toLowerCase(),
    hex,
    hex.toUpperCase(),
  ]);
  for (const b64 of base64Alignments(bytes)) {
    out.add(b64);
    out.add(b64.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...out].filter((s) => s.length > 0);
}

function percentAll(bytes: Buffer): string {
  return [...bytes].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

// A value starting at byte offset o (mod 3) of a longer payload encodes differently for each o. The first
// group mixes in the bytes before it and the last group the bytes after it, so both are cut.
function base64Alignments(bytes: Buffer): string[] {
  const result: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const encoded = padded.toString('base64').replace(/=+$/, '');
    const start = offset === 0 ? 0 : 4;
    const usableEnd = Math.floor(((offset + bytes.length) * 4) / 3);
    const end = (offset + bytes.length) % 3 === 0 ? encoded.length : Math.min(encoded.length, usableEnd);
    if (end - start > 0) result.push(encoded.slice(start, end));
  }
  return result;
}
