/** Shannon entropy of `text` in bits per character, over its own character frequencies. */
export function entropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Bits of the character kinds `text` uses. */
export const Kind = { lower: 1, upper: 2, digit: 4, symbol: 8 } as const;

/** The character kinds `text` uses, as a bit set of `Kind`. */
export function kindsOf(text: string): number {
  let kinds = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) kinds |= Kind.lower;
    else if (c >= 65 && c <= 90) kinds |= Kind.upper;
    else if (c >= 48 && c <= 57) kinds |= Kind.digit;
    else kinds |= Kind.symbol;
  }
  return kinds;
}

/** How many kinds a bit set of `Kind` holds. */
export function kindCount(kinds: number): number {
  let n = 0;
  for (let k = kinds; k > 0; k >>= 1) n += k & 1;
  return n;
}
