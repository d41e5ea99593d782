import { createCipheriv, createHmac, randomBytes } from 'node:crypto';

/** Bits of the keyed rolling hash kept as a window's bucket. */
export const BUCKET_BITS = 20;

/**
 * Keyed fingerprints of fixed-length windows, for remembering values across processes without keeping
 * them. A window is known by 48 bits of its HMAC-SHA256 and by its bucket: 20 bits of a rolling hash over
 * a key-derived character table, computed in O(1) per position. Hashing every window of every text with
 * HMAC is too slow for the log stage, so only positions whose bucket is occupied pay for one; a match
 * needs both, 68 bits in all. Both depend on the key, which lives outside the database, so neither tells
 * anything about the values to someone who reads the stored fingerprints without it.
 */
export class WindowHasher {
  readonly #key: Buffer;
  readonly #table: Uint32Array;
  readonly #base: number;
  readonly #width: number;
  readonly #drop: number;

  constructor(key: Buffer, width: number) {
    this.#key = key;
    this.#width = width;
    this.#table = new Uint32Array(keystream(createHmac('sha256', key).update('rolling-table').digest(), 65_537 * 4).buffer);
    this.#base = (this.#table[65_536]! | 1) >>> 0;
    let drop = 1;
    for (let i = 1; i < width; i++) drop = Math.imul(drop, this.#base);
    this.#drop = drop >>> 0;
  }

  /** The fingerprint of one window: 48 bits of its HMAC, exact in a double. */
  fingerprint(window: string): number {
    return createHmac('sha256', this.#key).update(window).digest().readUIntBE(0, 6);
  }

  /** A keyed identity for a whole value (or a key check), as text. */
  identity(text: string): string {
    return createHmac('sha256', this.#key).update(text).digest('base64url').slice(0, 22);
  }

  /** The bucket of one window. */
  bucket(window: string): number {
    let h = 0;
    for (let i = 0; i < window.length; i++) h = (Math.imul(h, this.#base) + this.#table[window.charCodeAt(i)]!) >>> 0;
    return h >>> (32 - BUCKET_BITS);
  }

  /** Calls `visit` with the start and bucket of every window of `text` whose bucket `occupied` holds. */
  scan(text: string, occupied: { has(bucket: number): boolean }, visit: (start: number, bucket: number) => void): void {
    const width = this.#width;
    let h = 0;
    for (let i = 0; i < text.length; i++) {
      if (i >= width) h = (h - Math.imul(this.#table[text.charCodeAt(i - width)]!, this.#drop)) >>> 0;
      h = (Math.imul(h, this.#base) + this.#table[text.charCodeAt(i)]!) >>> 0;
      if (i + 1 >= width && occupied.has(h >>> (32 - BUCKET_BITS))) visit(i + 1 - width, h >>> (32 - BUCKET_BITS));
    }
  }
}

/** A fresh key for the fingerprints. */
export function newWindowKey(): Buffer {
  return randomBytes(32);
}

// AES-256-CTR over zeros: a key-derived random table in one call (an HMAC per block would cost ~100 ms).
function keystream(key: Buffer, length: number): Uint8Array {
  const out = new Uint8Array(length);
  out.set(createCipheriv('aes-256-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(length)));
  return out;
}
