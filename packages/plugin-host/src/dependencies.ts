import { optionalService, type DependencyInfo, type PluginContext } from '@nodwyn/plugin-api';

/**
 * The `deps` argument a plugin's hooks receive: each required service, each optional one or
 * `undefined`, and a lookup function for each `lookup` one. Resolved through the plugin's own
 * `services`, so the declared-service and permission checks apply; a required service that is not
 * there throws its `SERVICE_NOT_FOUND` envelope.
 */
export function resolveDependencies(services: PluginContext['services'], deps: readonly DependencyInfo[]): Readonly<Record<string, unknown>> {
  return Object.freeze(Object.fromEntries(deps.map((dep) => [dep.name, resolveOne(services, dep)])));
}

function resolveOne(services: PluginContext['services'], dep: DependencyInfo): unknown {
  if (dep.mode === 'required') return services.get(dep.token);
  if (dep.mode === 'optional') return optionalService(services, dep.token);
  return () => optionalService(services, dep.token);
}

/** The `service:<name>` entries a plugin's optional dependencies order it after (see `PlanNode.after`). */
export function optionalAfter(deps: readonly DependencyInfo[]): readonly string[] {
  return deps.filter((dep) => dep.mode === 'optional').map((dep) => `service:${dep.token.name}`);
}
