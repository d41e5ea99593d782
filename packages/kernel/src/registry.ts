import { EnvelopeError } from '@nodwyn/plugin-api';
import { KernelCodes } from './errors.js';

/** An entry and the plugin that registered it. */
export interface Owned<T> {
  readonly item: T;
  readonly owner: string;
}

/**
 * Named contributions of one kind (providers, loop strategies, commands). Names are unique; asking for an
 * unknown one is an envelope that lists the known ones.
 */
export class Registry<T> {
  readonly #items = new Map<string, Owned<T>>();

  constructor(
    private readonly kind: string,
    private readonly nameOf: (item: T) => string,
  ) {}

  register(owner: string, item: T): void {
    const name = this.nameOf(item);
    const existing = this.#items.get(name);
    if (existing) {
      throw new EnvelopeError({
        category: 'PRECONDITION_FAILED',
        code: KernelCodes.REGISTRY_DUPLICATE,
        plugin: owner,
        received_value: name,
        remediation: `A ${this.kind} named "${name}" is already registered by ${existing.owner}. Pick another name.`,
      });
    }
    this.#items.set(name, { item, owner });
  }

  get(name: string): Owned<T> {
    const found = this.#items.get(name);
    if (!found) {
      throw new EnvelopeError({
        category: 'NOT_FOUND',
        code: KernelCodes.REGISTRY_UNKNOWN,
        received_value: name,
        expected: [...this.#items.keys()].sort().join(', ') || `no ${this.kind} is registered`,
        remediation: `There is no ${this.kind} named "${name}". Use one of the expected names.`,
      });
    }
    return found;
  }

  list(): Owned<T>[] {
    return [...this.#items.values()].sort((a, b) => {
      const [x, y] = [this.nameOf(a.item), this.nameOf(b.item)];
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
}
