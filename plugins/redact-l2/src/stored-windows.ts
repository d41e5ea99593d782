import { BUCKET_BITS } from './window-hash.js';

/** Bytes of one stored window: its bucket (4) and its 48-bit fingerprint (6). */
const RECORD = 10;

/** Packs `[bucket, fingerprint]` pairs as base64, ten bytes a window, for the memory file. */
export function packWindows(windows: readonly (readonly [number, number])[]): string {
  const bytes = Buffer.alloc(windows.length * RECORD);
  windows.forEach(([bucket, fingerprint], i) => {
    bytes.writeUInt32BE(bucket, i * RECORD);
    bytes.writeUIntBE(fingerprint, i * RECORD + 4, 6);
  });
  return bytes.toString('base64');
}

/**
 * The windows earlier processes remembered, in a compact read-only index: per bucket (an offsets table),
 * the fingerprints and the tag set of each. About 10 bytes a window, so a full memory (2,000 values, over
 * a million windows) costs tens of megabytes, not hundreds, and loads in a fraction of a second.
 */
export class StoredWindows {
  readonly #offsets = new Uint32Array((1 << BUCKET_BITS) + 1);
  readonly #fingerprints: Float64Array;
  readonly #tagIds: Uint32Array;
  readonly #tagSets: (readonly string[])[] = [];

  constructor(values: readonly { readonly tags: readonly string[]; readonly windows: string }[]) {
    const packed = values.map((v) => Buffer.from(v.windows, 'base64'));
    const count = packed.reduce((n, b) => n + Math.floor(b.length / RECORD), 0);
    this.#fingerprints = new Float64Array(count);
    this.#tagIds = new Uint32Array(count);
    for (const bytes of packed) for (let at = 0; at + RECORD <= bytes.length; at += RECORD) this.#offsets[bytes.readUInt32BE(at) + 1]!++;
    for (let b = 0; b < 1 << BUCKET_BITS; b++) this.#offsets[b + 1]! += this.#offsets[b]!;
    const fill = this.#offsets.slice(0, 1 << BUCKET_BITS);
    const ids = new Map<string, number>();
    values.forEach((value, v) => {
      const key = [...value.tags].sort().join(',');
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = this.#tagSets.push([...value.tags].sort()) - 1));
      const bytes = packed[v]!;
      for (let at = 0; at + RECORD <= bytes.length; at += RECORD) {
        const slot = fill[bytes.readUInt32BE(at)]!++;
        this.#fingerprints[slot] = bytes.readUIntBE(at + 4, 6);
        this.#tagIds[slot] = id;
      }
    });
  }

  /** True when some stored window falls in `bucket`. */
  has(bucket: number): boolean {
    return this.#offsets[bucket + 1]! > this.#offsets[bucket]!;
  }

  /** The tags of every stored window with this bucket and fingerprint (none: an empty list). */
  tagsAt(bucket: number, fingerprint: number): readonly string[] {
    const found: string[] = [];
    for (let i = this.#offsets[bucket]!; i < this.#offsets[bucket + 1]!; i++) {
      if (this.#fingerprints[i] === fingerprint) found.push(...this.#tagSets[this.#tagIds[i]!]!);
    }
    return found;
  }
}
