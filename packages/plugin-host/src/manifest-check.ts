import semver from 'semver';
import { ContractCodes, describeDependencies, envelope, jsonPath, ManifestSchema, valueAt, type DependencyInfo, type Envelope, type Manifest, type PluginDefinition } from '@nodwyn/plugin-api';
import { checkApiRange } from './api-range.js';
import type { DistributionEntry } from './distribution.js';
import { hostEnvelopeInit, type HostEnvelopeInit, type PluginHostErrorCode } from './errors.js';
import { isRecord } from './is-record.js';

/**
 * The outcome of checking what an entry loaded. A failed check still carries the manifest when it
 * parsed, so plugins that require this one can be told which dependency failed.
 */
export type DefinitionCheck =
  | { readonly ok: true; readonly definition: PluginDefinition; readonly manifest: Manifest; readonly dependencies: readonly DependencyInfo[] }
  | { readonly ok: false; readonly envelope: Envelope; readonly manifest?: Manifest };

type Init = Omit<HostEnvelopeInit, 'plugin' | 'operation'>;

/** True when `value` has the shape of a plugin definition: a `manifest` object and a `register` function. */
export function looksLikePlugin(value: unknown): value is PluginDefinition {
  return isRecord(value) && isRecord(value.manifest) && typeof value.register === 'function';
}


/**
 * Checks what an entry's `load` returned: the definition's shape, its manifest against `ManifestSchema`,
 * that it is the package and version the distribution asked for, and its `apiVersion` range.
 */
export function checkDefinition(raw: unknown, entry: DistributionEntry, hostApiVersion: string): DefinitionCheck {
  const plugin = entry.package;
  const refuse = (code: PluginHostErrorCode, init: Init, manifest?: Manifest): DefinitionCheck => ({
    ok: false,
    envelope: envelope(hostEnvelopeInit(code, { ...init, plugin, operation: 'plugin.load' })),
    manifest,
  });
  if (!looksLikePlugin(raw) || !hooksAreFunctions(raw)) {
    return refuse('PLUGIN_DEFINITION_INVALID', {
      received_value: raw,
      expected: '{ manifest, register(ctx), start?(ctx), stop?(ctx) }',
      remediation: `The loader of ${plugin} did not return a plugin; have it return the value of definePlugin(...).`,
    });
  }
  // An empty or blank range means "any version" to semver; refuse it as vague (what it means), not as
  // the schema's "too short" (how it is spelled).
  const rawRange = raw.manifest.apiVersion;
  if (typeof rawRange === 'string' && rawRange.trim() === '') {
    const refusal = checkApiRange(plugin, rawRange, hostApiVersion);
    if (refusal) return { ok: false, envelope: refusal };
  }
  const parsed = ManifestSchema.safeParse(raw.manifest);
  if (!parsed.success) return refuse('PLUGIN_MANIFEST_INVALID', manifestIssue(parsed.error.issues, plugin, raw.manifest));
  const dependencies = describeDependencies(raw.deps);
  if (dependencies === undefined) {
    return refuse(
      'PLUGIN_DEFINITION_INVALID',
      { failed_parameter: '$.deps', expected: '{ name: Token | optional(Token) | lookup(Token) }', remediation: `The deps of ${plugin} are not service tokens; declare them with definePlugin's deps.` },
      parsed.data,
    );
  }
  const manifest = withDependencies(parsed.data, dependencies);
  const unpermitted = dependencies.find((dep) => dep.token.permission && !manifest.permissions.includes(dep.token.permission));
  if (unpermitted?.token.permission) {
    return refuse(
      ContractCodes.PLUGIN_PERMISSION_UNDECLARED,
      {
        failed_parameter: '$.permissions',
        received_value: manifest.permissions,
        expected: unpermitted.token.permission,
        remediation: `${plugin} depends on the "${unpermitted.token.name}" service (deps.${unpermitted.name}), which needs the "${unpermitted.token.permission}" permission; add it to the manifest's permissions.`,
      },
      manifest,
    );
  }
  return checkIdentity({ manifest, dependencies, definition: raw }, entry, hostApiVersion, refuse);
}

/**
 * The manifest with each required dependency's `service:<name>` in `requires`, as `definePlugin` does:
 * a definition written by hand (or by another copy of plugin-api) is ordered by its deps all the same.
 */
function withDependencies(manifest: Manifest, dependencies: readonly DependencyInfo[]): Manifest {
  const derived = dependencies.filter((dep) => dep.mode === 'required').map((dep) => `service:${dep.token.name}`);
  const added = derived.filter((requirement, index) => !manifest.requires.includes(requirement) && derived.indexOf(requirement) === index);
  return added.length === 0 ? manifest : { ...manifest, requires: [...manifest.requires, ...added] };
}

function checkIdentity(
  checked: { readonly manifest: Manifest; readonly dependencies: readonly DependencyInfo[]; readonly definition: PluginDefinition },
  entry: DistributionEntry,
  hostApiVersion: string,
  refuse: (code: PluginHostErrorCode, init: Init, manifest?: Manifest) => DefinitionCheck,
): DefinitionCheck {
  const { manifest } = checked;
  if (manifest.name !== entry.package) {
    return refuse(
      'PLUGIN_NAME_MISMATCH',
      {
        failed_parameter: '$.name',
        received_value: manifest.name,
        expected: entry.package,
        remediation: `The distribution loads ${entry.package} but the plugin calls itself ${manifest.name}; point the entry at the right package or fix the manifest name.`,
      },
      manifest,
    );
  }
  if (!semver.satisfies(manifest.version, entry.range)) {
    return refuse(
      'PLUGIN_VERSION_MISMATCH',
      {
        failed_parameter: '$.version',
        received_value: manifest.version,
        expected: entry.range,
        remediation: `${entry.package} ${manifest.version} is installed but the distribution wants "${entry.range}"; install a matching version or widen the distribution's range.`,
      },
      manifest,
    );
  }
  const apiRefusal = checkApiRange(entry.package, manifest.apiVersion, hostApiVersion);
  if (apiRefusal) return { ok: false, envelope: apiRefusal, manifest };
  return { ok: true, ...checked };
}

function manifestIssue(
  issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string; readonly code: string; readonly keys?: readonly string[] }[],
  plugin: string,
  manifest: Record<string, unknown>,
): Init {
  const issue = issues[0];
  // A strict-schema "unrecognized key" issue points at the object; naming the key itself is what helps.
  const path = issue ? [...issue.path, ...(issue.code === 'unrecognized_keys' && issue.keys ? issue.keys.slice(0, 1) : [])] : [];
  return {
    failed_parameter: jsonPath(path),
    received_value: valueAt(manifest, path),
    expected: issue?.message,
    remediation: `The manifest of ${plugin} is invalid at ${jsonPath(path)}: ${issue?.message ?? 'unknown problem'}. Fix the manifest; see ManifestSchema in @nodwyn/plugin-api.`,
  };
}


function hooksAreFunctions(definition: PluginDefinition): boolean {
  return [definition.start, definition.stop].every((hook) => hook === undefined || typeof hook === 'function');
}
