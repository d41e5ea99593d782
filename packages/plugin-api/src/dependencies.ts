import type { Token } from './tokens.js';

/**
 * A service the plugin can do without, resolved before `register`: the value, or `undefined` when no
 * plugin provides it. The host places the plugin after the provider when the provider is loaded.
 */
export interface OptionalDependency<T> {
  /** Tells this form apart from a token and from `lookup`. */
  readonly mode: 'optional';
  /** The service's token. */
  readonly token: Token<T>;
}

/**
 * A service the plugin can do without and looks up at each use: a function that returns the value, or
 * `undefined` while no plugin provides it. It does not move the plugin after the provider, for a plugin
 * that must register first (L1's guard stages run before L2's, yet ask L2 at each call).
 */
export interface LookupDependency<T> {
  /** Tells this form apart from a token and from `optional`. */
  readonly mode: 'lookup';
  /** The service's token. */
  readonly token: Token<T>;
}

/** One declared dependency: a token (required), `optional(token)` or `lookup(token)`. */
export type Dependency = Token<unknown> | OptionalDependency<unknown> | LookupDependency<unknown>;

/** A plugin's declared dependencies, by the name `register(ctx, deps)` receives each under. */
export type Dependencies = Readonly<Record<string, Dependency>>;

/** No dependencies: the default of a plugin that declares none. */
export type NoDependencies = Readonly<Record<never, never>>;

/** What one declared dependency resolves to. */
export type ResolvedDependency<D> =
  D extends OptionalDependency<infer T> ? T | undefined : D extends LookupDependency<infer T> ? () => T | undefined : D extends Token<infer T> ? T : never;

/** The `deps` argument of `register`, `start` and `stop`: each declared service, typed by its token. */
export type ResolvedDependencies<D extends Dependencies> = { readonly [K in keyof D]: ResolvedDependency<D[K]> };

/** Declares a service the plugin uses when some plugin provides it; see {@link OptionalDependency}. */
export function optional<T>(token: Token<T>): OptionalDependency<T> {
  return { mode: 'optional', token };
}

/** Declares a service the plugin looks up at each use; see {@link LookupDependency}. */
export function lookup<T>(token: Token<T>): LookupDependency<T> {
  return { mode: 'lookup', token };
}

/** A declared dependency taken apart, for hosts: the name it is passed under, its token, how it is resolved. */
export interface DependencyInfo {
  /** The key in `deps`, which the hooks receive the service under. */
  readonly name: string;
  /** The service's token. */
  readonly token: Token<unknown>;
  /** A bare token is `required`; the others say which helper made them. */
  readonly mode: 'required' | 'optional' | 'lookup';
}

/**
 * The declared dependencies as a list, or `undefined` when one of them is neither a token nor made by
 * `optional`/`lookup` (a plugin written without types). Read by shape, so a plugin bundling its own copy
 * of this package is understood.
 */
export function describeDependencies(deps: unknown): readonly DependencyInfo[] | undefined {
  if (deps === undefined) return [];
  if (typeof deps !== 'object' || deps === null || Array.isArray(deps)) return undefined;
  const infos: DependencyInfo[] = [];
  for (const [name, value] of Object.entries(deps)) {
    if (isToken(value)) infos.push({ name, token: value, mode: 'required' });
    else if (isRecord(value) && (value.mode === 'optional' || value.mode === 'lookup') && isToken(value.token)) infos.push({ name, token: value.token, mode: value.mode });
    else return undefined;
  }
  return infos;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isToken(value: unknown): value is Token<unknown> {
  return isRecord(value) && typeof value.key === 'symbol' && typeof value.name === 'string';
}
