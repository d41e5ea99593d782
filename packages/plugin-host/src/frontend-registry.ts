import type { Frontend } from '@nodwyn/plugin-api';

/** One front end as `nodwyn plugins` lists it. */
export interface FrontendInfo {
  readonly id: string;
  readonly description: string;
  /** The plugin that registered it. */
  readonly owner: string;
}

/**
 * The front ends plugins registered. The host keeps them rather than the kernel: a front end is started
 * by the app with a protocol client and never touches the kernel, so the kernel has no use for them
 * (docs/architecture.md §9), and staying out keeps the kernel small.
 */
export class FrontendRegistry {
  readonly #items = new Map<string, { readonly frontend: Frontend; readonly owner: string }>();

  add(owner: string, frontend: Frontend): void {
    this.#items.set(frontend.id, { frontend, owner });
  }

  /** Every registered front end with its owner, in registration order. */
  entries(): readonly { readonly frontend: Frontend; readonly owner: string }[] {
    return [...this.#items.values()];
  }
}
