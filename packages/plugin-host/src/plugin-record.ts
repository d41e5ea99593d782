import type { DependencyInfo, Envelope, Manifest, PluginDefinition } from '@nodwyn/plugin-api';
import type { DistributionEntry } from './distribution.js';
import type { PluginState } from './plugin-report.js';
import type { PluginScope } from './plugin-scope.js';

/** The host's mutable bookkeeping for one distribution entry. Internal: callers see PluginReport. */
export interface PluginRecord {
  readonly entry: DistributionEntry;
  /** The entry's package; the name the host uses for the plugin everywhere. */
  readonly name: string;
  readonly optional: boolean;
  state: PluginState;
  /** Set once the manifest parsed, even if a later check refused the plugin. */
  readonly manifest?: Manifest;
  /** Set only when every load-time check passed. */
  readonly definition?: PluginDefinition;
  /** The definition's `deps`, taken apart; set with `definition`. */
  readonly dependencies?: readonly DependencyInfo[];
  /** The resolved `deps` its hooks receive; set just before `register`. */
  deps?: Readonly<Record<string, unknown>>;
  envelope?: Envelope;
  scope?: PluginScope;
}
