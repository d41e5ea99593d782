import type { Rng } from './prng.js';

/** How the corpus makes samples of one class. */
export interface ClassSpec {
  readonly class: string;
  /** Names the value is assigned to in contexts; keyword classes need the keyword in every one. */
  readonly keys: readonly string[];
  /** One secret, and the text that carries it (often the secret itself, or a URL around it). */
  make(rng: Rng): { secret: string; carrier: string };
  /** True when the carrier alone is enough to detect the class, with no key around it. */
  readonly standalone: boolean;
  /** True when the secret alone (without its carrier) is enough: then a wrapper keeps its class. */
  readonly selfEvident: boolean;
  /** True when the carrier is a block (a key, a manifest, a command line), so only block contexts fit. */
  readonly block?: boolean;
}

/** A class whose token is its own carrier and is recognised by its format alone. */
export function token(cls: string, keys: readonly string[], make: (rng: Rng) => string): ClassSpec {
  return {
    class: cls,
    keys,
    standalone: true,
    selfEvident: true,
    make(rng) {
      const secret = make(rng);
      return { secret, carrier: secret };
    },
  };
}

/** A class recognised only through the key it is assigned to. */
export function keyed(cls: string, keys: readonly string[], make: (rng: Rng) => string): ClassSpec {
  return { ...token(cls, keys, make), standalone: false, selfEvident: false };
}

/** A class whose secret sits inside a structure (a URL, a connection string) that identifies it. */
export function carried(cls: string, keys: readonly string[], make: (rng: Rng) => { secret: string; carrier: string }, block = false): ClassSpec {
  return { class: cls, keys, standalone: true, selfEvident: false, make, ...(block ? { block } : {}) };
}
