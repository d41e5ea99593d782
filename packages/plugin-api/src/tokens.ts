import type { Permission } from './manifest.js';

/** A typed key for a service shared between plugins through the host's containers. */
export interface Token<T> {
  readonly key: symbol;
  readonly name: string;
  /** A permission a plugin's manifest must declare to `services.get` this token (the host checks). */
  readonly permission?: Permission;
  /** Phantom field that carries the type; never set. */
  readonly __type?: T;
}

/** Creates a token. Tokens with the same name are the same token. */
export function createToken<T>(name: string, options: { permission?: Permission } = {}): Token<T> {
  return { key: Symbol.for(`nodwyn.token.${name}`), name, ...(options.permission ? { permission: options.permission } : {}) };
}
