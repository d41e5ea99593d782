/** mulberry32: a tiny 32-bit PRNG; the same seed gives the same corpus on every machine. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const HEX = '0123456789abcdef';
export const HEX_UPPER = '0123456789ABCDEF';
export const DIGITS = '0123456789';
export const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const BASE64 = `${ALNUM}+/`;
export const BASE64URL = `${ALNUM}-_`;
/** Symbols generated passwords use; quotes, backslashes, `;`, `,` and brackets would end a value early in any parser. */
export const PASSWORD_SYMBOLS = '!@#%^*-_+=.?~';

/** Random choices on top of a seeded generator. */
export class Rng {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }

  float(): number {
    return this.#next();
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.#next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  chars(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }

  bytes(n: number): Uint8Array {
    return Uint8Array.from({ length: n }, () => this.int(256));
  }
}

/** Standard base64 of a string (UTF-8) or bytes. */
export function b64(value: string | Uint8Array): string {
  return Buffer.from(value).toString('base64');
}

/** Unpadded base64url of a string. */
export function b64url(value: string): string {
  return Buffer.from(value).toString('base64url');
}
