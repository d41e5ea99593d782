import type { Permission } from './manifest.js';

/** A typed key for a service shared between plugins through the host's containers. */
export interface Token<T> {
  readonly key: symbol;
  readonly name: string;
  /**
   * A permission a plugin's manifest must declare to `services.get` this token. The host records it with
   * the service when the service is provided and checks that record, so a token made again by name
   * without the permission does not get past it.
   */
  readonly permission?: Permission;
  /** Phantom field that carries the type; never set. */
  readonly __type?: T;
}

/**
 * Creates a token. Tokens with the same name are the same token (plugins bundled with their own copy of
 * this package must meet); the permission that guards a service is the provider's, see {@link Token.permission}.
 */
export function createToken<T>(name: string, options: { permission?: Permission } = {}): Token<T> {
  return { key: Symbol.for(`nodwyn.token.${name}`), name, ...(options.permission ? { permission: options.permission } : {}) };
}
