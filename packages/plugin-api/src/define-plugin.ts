import type { PluginContext } from './context.js';
import { EnvelopeError } from './envelope.js';
import { PluginApiCodes } from './errors.js';
import { jsonPath, valueAt } from './json-path.js';
import { ManifestSchema, type Manifest, type ManifestInput } from './manifest.js';

/** A plugin: a value with a manifest and lifecycle hooks. */
export interface PluginDefinition {
  readonly manifest: Manifest;
  /** Contributes primitives, providers, stages, commands and services. Runs once, in `requires` order. */
  register(context: PluginContext): void | Promise<void>;
  /** Starts background work after every plugin registered. */
  start?(context: PluginContext): void | Promise<void>;
  /** Stops background work; runs in reverse order. */
  stop?(context: PluginContext): void | Promise<void>;
}

/**
 * Declares a plugin. The manifest is parsed here, so a malformed one fails where it is written, with a
 * `VALIDATION_FAILED` envelope whose `failed_parameter` is the JSON path of the first problem.
 *
 * @example
 * export const helloPlugin = definePlugin({
 *   manifest: { name: 'hello', version: '1.0.0', apiVersion: '^0.1.0', provides: ['primitive:hello'] },
 *   register(ctx) { ctx.primitives.register({ name: 'hello', ... }); },
 * });
 */
export function definePlugin(plugin: {
  manifest: ManifestInput;
  register: PluginDefinition['register'];
  start?: PluginDefinition['start'];
  stop?: PluginDefinition['stop'];
}): PluginDefinition {
  const parsed = ManifestSchema.safeParse(plugin.manifest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = jsonPath(issue.path);
    throw new EnvelopeError({
      category: 'VALIDATION_FAILED',
      code: PluginApiCodes.PLUGIN_MANIFEST_INVALID,
      plugin: typeof plugin.manifest?.name === 'string' ? plugin.manifest.name : undefined,
      failed_parameter: where,
      received_value: valueAt(plugin.manifest, issue.path),
      expected: issue.message,
      remediation: `Fix the manifest at ${where}: ${issue.message}.`,
    });
  }
  return { ...plugin, manifest: parsed.data };
}
