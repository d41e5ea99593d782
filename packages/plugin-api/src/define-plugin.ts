import type { PluginContext } from './context.js';
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
 * Declares a plugin. The manifest is parsed here, so a malformed one fails where it is written.
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
  return { ...plugin, manifest: ManifestSchema.parse(plugin.manifest) };
}
