import type { EgressPosition } from '@nodwyn/plugin-api';
import { formatHostPattern, hostMatches, pathMatches, type Destination, type HostPattern } from './destination.js';
import { formatPosition, positionMatches, type PositionSpec } from './position.js';

/** The methods a binding may allow (fetch refuses CONNECT, TRACE and TRACK anyway). */
export const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** An HTTP method a binding may allow. */
export type Method = (typeof METHODS)[number];

/** One destination a secret class is bound to. */
export interface BoundDestination {
  readonly host: HostPattern;
  readonly pathPrefix?: string;
  readonly positions: readonly PositionSpec[];
  readonly methods: readonly Method[];
}

/** Secret class → the destinations its values may be sent to. */
export type BindingTable = Readonly<Record<string, readonly BoundDestination[]>>;

/**
 * True when `cls` may be sent to the destination with its method, in `position`. Without a position the
 * question is whether the destination is bound at all (used for taint a request carries as a whole).
 */
export function isBound(table: BindingTable, cls: string, destination: Destination, position?: EgressPosition): boolean {
  const bound = Object.hasOwn(table, cls) ? table[cls]! : [];
  return bound.some(
    (entry) =>
      hostMatches(entry.host, destination) &&
      pathMatches(entry.pathPrefix, destination.path) &&
      entry.methods.includes(destination.method as Method) &&
      (position === undefined || entry.positions.some((spec) => positionMatches(spec, position))),
  );
}

function sameTarget(a: BoundDestination, b: { host: HostPattern; pathPrefix?: string }): boolean {
  return formatHostPattern(a.host) === formatHostPattern(b.host) && a.pathPrefix === b.pathPrefix;
}

function union<T>(a: readonly T[], b: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of [...a, ...b]) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/** Header names compare case-insensitively, so `header:authorization` and `header:Authorization` are one. */
function positionKey(spec: PositionSpec): string {
  return spec.kind === 'header' ? formatPosition(spec).toLowerCase() : formatPosition(spec);
}

/** Adds a destination to a class; one already bound with the same host and path gains the positions and methods. */
export function addBinding(table: BindingTable, cls: string, destination: BoundDestination): BindingTable {
  const current = Object.hasOwn(table, cls) ? table[cls]! : [];
  const existing = current.find((entry) => sameTarget(entry, destination));
  const merged: BoundDestination = existing
    ? {
        ...existing,
        positions: union(existing.positions, destination.positions, positionKey),
        methods: union(existing.methods, destination.methods, (m) => m),
      }
    : destination;
  const next = existing ? current.map((entry) => (entry === existing ? merged : entry)) : [...current, merged];
  return { ...table, [cls]: next };
}

/**
 * Removes a class's destinations: all of them, or those with `host` (and `pathPrefix`, when given).
 * A class left with no destination disappears from the table.
 */
export function removeBindings(
  table: BindingTable,
  cls: string,
  filter: { host?: HostPattern; pathPrefix?: string } = {},
): { table: BindingTable; removed: number } {
  const current = Object.hasOwn(table, cls) ? table[cls]! : [];
  const doomed = (entry: BoundDestination): boolean =>
    (filter.host === undefined || formatHostPattern(entry.host) === formatHostPattern(filter.host)) &&
    (filter.pathPrefix === undefined || entry.pathPrefix === filter.pathPrefix);
  const kept = current.filter((entry) => !doomed(entry));
  const next: Record<string, readonly BoundDestination[]> = { ...table };
  if (kept.length > 0) next[cls] = kept;
  else delete next[cls];
  return { table: next, removed: current.length - kept.length };
}

/** The table as plain data, in bindings.toml's shape (also what `nodwyn bind list --json` prints). */
export function tableToData(table: BindingTable): Record<string, Record<string, unknown>[]> {
  const data: Record<string, Record<string, unknown>[]> = {};
  for (const [cls, destinations] of Object.entries(table)) {
    data[cls] = destinations.map((entry) => ({
      host: formatHostPattern(entry.host),
      ...(entry.pathPrefix === undefined ? {} : { path_prefix: entry.pathPrefix }),
      positions: entry.positions.map(formatPosition),
      methods: [...entry.methods],
    }));
  }
  return data;
}
