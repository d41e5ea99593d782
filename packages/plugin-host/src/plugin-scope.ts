import type { DependencyContainer } from 'tsyringe';
import type { PluginContext } from '@nodwyn/plugin-api';
import { ContributionBuffer, type HostRegistries } from './contributions.js';
import { createPluginContext, type PluginContextInput } from './plugin-context-factory.js';

/** A loaded plugin's share of the host: its context, its pending contributions and its container. */
export interface PluginScope {
  readonly context: PluginContext;
  readonly contributions: ContributionBuffer;
  /** Disposes the plugin's child container; later calls do nothing. */
  dispose(): Promise<void>;
}

/** What a scope is built from, beyond the plugin's manifest and shared settings. */
export interface PluginScopeInput extends Omit<PluginContextInput, 'container' | 'contributions'> {
  /** The host's root container; the plugin gets a child of it. */
  readonly root: DependencyContainer;
  /** Host-wide ledger of applied `kind:name` → owner. */
  readonly owners: Map<string, string>;
  /** The host's front ends and agent commands, which the plugin's contributions of those kinds go to. */
  readonly kept: HostRegistries;
}

/** Creates a plugin's child container, contribution buffer and context. */
export function createPluginScope(input: PluginScopeInput): PluginScope {
  const { root, owners, kept, ...rest } = input;
  const container = root.createChildContainer();
  const contributions = new ContributionBuffer(input.manifest.name, input.kernel, owners, kept);
  const context = createPluginContext({ ...rest, container, contributions });
  let disposed: Promise<void> | undefined;
  return {
    context,
    contributions,
    dispose: () => {
      disposed ??= Promise.resolve(container.dispose());
      return disposed;
    },
  };
}
