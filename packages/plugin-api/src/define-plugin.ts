import type { PluginContext } from './context.js';
import { describeDependencies, type Dependencies, type DependencyInfo, type NoDependencies, type ResolvedDependencies } from './dependencies.js';
import { EnvelopeError } from './envelope.js';
import { PluginApiCodes } from './errors.js';
import { jsonPath, valueAt } from './json-path.js';
import { ManifestSchema, type Manifest, type ManifestInput } from './manifest.js';

/**
 * The arguments of a plugin's hooks after the context: its resolved `deps`, which a plugin that declares
 * none may be called without (a test calling `plugin.register(ctx)`).
 */
export type HookDependencies<D extends Dependencies> = [keyof D] extends [never] ? [deps?: ResolvedDependencies<D>] : [deps: ResolvedDependencies<D>];

/** A plugin: a value with a manifest, the services it depends on and lifecycle hooks. */
export interface PluginDefinition<D extends Dependencies = Dependencies> {
  readonly manifest: Manifest;
  /**
   * The services this plugin uses, by the name its hooks receive each under: a token (required: its
   * `service:<name>` is in `manifest.requires`), `optional(token)` or `lookup(token)`.
   */
  readonly deps?: D;
  /** Contributes primitives, providers, stages, commands and services. Runs once, in `requires` order. */
  register(context: PluginContext, ...deps: HookDependencies<D>): void | Promise<void>;
  /** Starts background work after every plugin registered. */
  start?(context: PluginContext, ...deps: HookDependencies<D>): void | Promise<void>;
  /** Stops background work; runs in reverse order. */
  stop?(context: PluginContext, ...deps: HookDependencies<D>): void | Promise<void>;
}

/** What `definePlugin` is given. */
export interface PluginInput<D extends Dependencies> {
  /** The manifest as written; `definePlugin` parses it and adds required deps to `requires`. */
  manifest: ManifestInput;
  /** See {@link PluginDefinition.deps}. */
  deps?: D;
  /** See {@link PluginDefinition.register}. */
  register(context: PluginContext, ...deps: HookDependencies<D>): void | Promise<void>;
  /** See {@link PluginDefinition.start}. */
  start?(context: PluginContext, ...deps: HookDependencies<D>): void | Promise<void>;
  /** See {@link PluginDefinition.stop}. */
  stop?(context: PluginContext, ...deps: HookDependencies<D>): void | Promise<void>;
}

/**
 * Declares a plugin. The manifest is parsed here, so a malformed one fails where it is written, with a
 * `VALIDATION_FAILED` envelope whose `failed_parameter` is the JSON path of the first problem. Each
 * required dependency adds its `service:<name>` to `requires`; a dependency whose token needs a
 * permission the manifest does not list fails here too (`PLUGIN_DEPENDENCY_PERMISSION_MISSING`).
 *
 * @example
 * export const egressPlugin = definePlugin({
 *   manifest: { name: 'egress', version: '1.0.0', apiVersion: '^0.1.0', permissions: ['secrets.reveal'] },
 *   deps: { keychain: KeychainToken, taint: optional(TaintToken) },
 *   register(ctx, { keychain, taint }) { ... }, // keychain: Keychain, taint: TaintTracker | undefined
 * });
 */
export function definePlugin<const D extends Dependencies = NoDependencies>(plugin: PluginInput<D>): PluginDefinition<D> {
  const name = typeof plugin.manifest?.name === 'string' ? plugin.manifest.name : undefined;
  const parsed = ManifestSchema.safeParse(plugin.manifest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = jsonPath(issue.path);
    throw new EnvelopeError({
      category: 'VALIDATION_FAILED',
      code: PluginApiCodes.PLUGIN_MANIFEST_INVALID,
      plugin: name,
      failed_parameter: where,
      received_value: valueAt(plugin.manifest, issue.path),
      expected: issue.message,
      remediation: `Fix the manifest at ${where}: ${issue.message}.`,
    });
  }
  const deps = checkDependencies(plugin.deps, parsed.data);
  const derived = deps.filter((dep) => dep.mode === 'required').map((dep) => `service:${dep.token.name}`);
  const requires = [...parsed.data.requires, ...derived.filter((requirement, index) => !parsed.data.requires.includes(requirement) && derived.indexOf(requirement) === index)];
  return { ...plugin, manifest: { ...parsed.data, requires } };
}

function checkDependencies(deps: unknown, manifest: Manifest): readonly DependencyInfo[] {
  const infos = describeDependencies(deps);
  if (infos === undefined) {
    throw new EnvelopeError({
      category: 'VALIDATION_FAILED',
      code: PluginApiCodes.PLUGIN_DEPENDENCY_INVALID,
      plugin: manifest.name,
      failed_parameter: '$.deps',
      expected: '{ name: Token | optional(Token) | lookup(Token) }',
      remediation: `Give ${manifest.name}'s deps an object whose values are service tokens (KeychainToken), optional(token) or lookup(token).`,
    });
  }
  for (const dep of infos) {
    const permission = dep.token.permission;
    if (permission && !manifest.permissions.includes(permission)) {
      throw new EnvelopeError({
        category: 'VALIDATION_FAILED',
        code: PluginApiCodes.PLUGIN_DEPENDENCY_PERMISSION_MISSING,
        plugin: manifest.name,
        operation: `deps.${dep.name}`,
        failed_parameter: '$.permissions',
        received_value: manifest.permissions,
        expected: permission,
        remediation: `${manifest.name} depends on the "${dep.token.name}" service (deps.${dep.name}), which needs the "${permission}" permission; add it to the manifest's permissions.`,
      });
    }
  }
  return infos;
}
