/** A typed key for a service shared between plugins through the host's containers. */
export interface Token<T> {
  readonly key: symbol;
  readonly name: string;
  /** Phantom field that carries the type; never set. */
  readonly __type?: T;
}

/** Creates a token. Tokens with the same name are the same token. */
export function createToken<T>(name: string): Token<T> {
  return { key: Symbol.for(`nodwyn.token.${name}`), name };
}
