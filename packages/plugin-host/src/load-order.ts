/** What the planner needs to know of one plugin. */
export interface PlanNode {
  readonly name: string;
  readonly requires: readonly string[];
  readonly provides: readonly string[];
  /**
   * What the plugin uses when present (its `optional(token)` dependencies, as `service:<name>`): it is
   * placed after their providers, but nothing is missing when none is loaded.
   */
  readonly after?: readonly string[];
}

/** One `requires` entry and the plugins that provide it (empty when something outside plugins does). */
export interface Requirement {
  readonly requirement: string;
  readonly providers: readonly string[];
}

/** The load order and everything that keeps a plugin from taking its place in it. */
export interface LoadPlan {
  /** Every node, dependencies first; ties keep the input (distribution) order. */
  readonly order: readonly string[];
  /** Per plugin, its requirements that nothing provides. */
  readonly missing: ReadonlyMap<string, readonly string[]>;
  /** Per plugin caught in a cycle, the cycle as `a → b → a`. */
  readonly cycles: ReadonlyMap<string, readonly string[]>;
  /** Per plugin, each satisfiable requirement and its providers. */
  readonly requirements: ReadonlyMap<string, readonly Requirement[]>;
}

/**
 * Orders plugins by `requires`. A requirement `plugin:<name>` is met by that plugin; any other is met
 * by every plugin whose `provides` lists it, or by `available` (what the kernel already has). Plugins in
 * a cycle are reported and then treated as placed, so the rest can still be ordered around them.
 * An `after` entry orders like a requirement when some plugin provides it and is ignored otherwise; it
 * never makes a cycle: when only such edges keep every plugin waiting, they are let go, so an optional
 * dependency caught in a loop is resolved as absent rather than failing the plugins around it.
 */
export function planLoadOrder(nodes: readonly PlanNode[], available: ReadonlySet<string>): LoadPlan {
  const providers = indexProviders(nodes);
  const missing = new Map<string, string[]>();
  const requirements = new Map<string, Requirement[]>();
  for (const node of nodes) {
    const resolved: Requirement[] = [];
    for (const requirement of node.requires) {
      const found = providers.get(requirement) ?? [];
      if (found.length > 0) resolved.push({ requirement, providers: found });
      else if (!available.has(requirement)) missing.set(node.name, [...(missing.get(node.name) ?? []), requirement]);
    }
    requirements.set(node.name, resolved);
  }
  const dependencies = new Map(nodes.map((node) => [node.name, new Set((requirements.get(node.name) ?? []).flatMap((r) => r.providers))]));
  const soft = new Map(nodes.map((node) => [node.name, new Set((node.after ?? []).flatMap((use) => providers.get(use) ?? []).filter((name) => name !== node.name))]));
  const { order, cycles } = sortStable(nodes.map((node) => node.name), dependencies, soft);
  return { order, missing, cycles, requirements };
}

function indexProviders(nodes: readonly PlanNode[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  const add = (key: string, name: string): void => {
    const list = index.get(key) ?? [];
    if (!list.includes(name)) index.set(key, [...list, name]);
  };
  for (const node of nodes) {
    add(`plugin:${node.name}`, node.name);
    for (const provided of node.provides) if (!provided.startsWith('plugin:')) add(provided, node.name);
  }
  return index;
}

function sortStable(names: readonly string[], dependencies: ReadonlyMap<string, ReadonlySet<string>>, soft: ReadonlyMap<string, ReadonlySet<string>>) {
  const order: string[] = [];
  const placed = new Set<string>();
  const cycles = new Map<string, string[]>();
  const ready = (name: string, edges: ReadonlyMap<string, ReadonlySet<string>>): boolean => [...(edges.get(name) ?? [])].every((dep) => placed.has(dep));
  while (placed.size < names.length) {
    const placeable = names.filter((name) => !placed.has(name) && ready(name, dependencies));
    const next = placeable.find((name) => ready(name, soft)) ?? placeable[0];
    if (next !== undefined) {
      order.push(next);
      placed.add(next);
      continue;
    }
    const cycle = findCycle(names, dependencies, placed);
    for (const name of cycle.slice(0, -1)) {
      cycles.set(name, cycle);
      order.push(name);
      placed.add(name);
    }
  }
  return { order, cycles };
}

/**
 * Walks unplaced dependencies from the first unplaced node until a node repeats. Called only when no
 * unplaced node has all its dependencies placed, so every unplaced node has an unplaced dependency
 * and the walk must close a loop.
 */
function findCycle(names: readonly string[], dependencies: ReadonlyMap<string, ReadonlySet<string>>, placed: ReadonlySet<string>): string[] {
  const path: string[] = [];
  let current = names.find((name) => !placed.has(name));
  while (current !== undefined && !path.includes(current)) {
    path.push(current);
    current = [...(dependencies.get(current) ?? [])].find((dep) => !placed.has(dep));
  }
  if (current === undefined) throw new Error('planLoadOrder: no cycle found although no plugin can be placed');
  return [...path.slice(path.indexOf(current)), current];
}
