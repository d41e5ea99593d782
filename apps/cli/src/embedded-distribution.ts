import type { Config } from '@nodwyn/runtime';
import { dirname, resolve } from 'node:path';
import type { DistFile } from './dist-file.js';

/** Where a `nodwyn dist build` bundle puts its distribution, before the CLI's own code runs. */
export const EMBEDDED_DISTRIBUTION = Symbol.for('nodwyn.embeddedDistribution');

/** A third-party plugin baked into a bundle at build time, with what the builder saw of it. */
export interface BakedPlugin {
  readonly version: string;
  /** The content hash of its installed files at build time (the trust ledger's hash). */
  readonly hash: string;
  /** Imports the bundled copy; answers the module's namespace. */
  readonly load: () => Promise<Record<string, unknown>>;
}

/** The distribution file a bundle was built from, checked at build time, and its baked plugins. */
export interface EmbeddedDistribution {
  readonly name: string;
  readonly version: string;
  readonly frontend?: string;
  readonly plugins: DistFile['plugins'];
  readonly config: Config;
  readonly unsafeTest: boolean;
  /** Third-party plugins by package name: part of the distribution, so the run-time trust ledger does not gate them. */
  readonly baked: Readonly<Record<string, BakedPlugin>>;
}

/** The distribution this process was bundled with (`nodwyn dist build`); undefined for the default CLI. */
export function embeddedDistribution(): EmbeddedDistribution | undefined {
  return (globalThis as Record<symbol, EmbeddedDistribution | undefined>)[EMBEDDED_DISTRIBUTION];
}

/** The embedded distribution as the distribution file it was built from; its folder is the bundle's. */
export function embeddedDistFile(embedded: EmbeddedDistribution, bundle: string): DistFile {
  const path = resolve(bundle);
  return { path, dir: dirname(path), name: embedded.name, version: embedded.version, frontend: embedded.frontend, plugins: embedded.plugins, config: embedded.config, unsafeTest: embedded.unsafeTest };
}
