import type { Envelope } from '@nodwyn/plugin-api';

/**
 * Where a plugin is in its life. `loaded`: manifest read and checked. `registered`: its contributions
 * are in the kernel. `started`: `start` returned. `failed`: any stage failed (see the envelope).
 * `stopped`: the host shut it down. `disabled`: configuration turned it off; it was never loaded.
 */
export type PluginState = 'loaded' | 'registered' | 'started' | 'failed' | 'stopped' | 'disabled';

/** One row of `nodwyn plugins`. */
export interface PluginReport {
  readonly name: string;
  /** Undefined when the manifest was never read (disabled, or loading failed before it). */
  readonly version: string | undefined;
  /** The plugin's `apiVersion` range; undefined when the manifest was never read. */
  readonly apiVersion: string | undefined;
  readonly state: PluginState;
  readonly optional: boolean;
  /** What the manifest declares it provides (empty when it was never read). */
  readonly provides: readonly string[];
  /** Why the plugin failed, when it did. */
  readonly envelope?: Envelope;
}
