import semver from 'semver';
import { EnvelopeError, type PluginDefinition } from '@nodwyn/plugin-api';
import { hostEnvelopeInit } from './errors.js';

/** One plugin a distribution names. */
export interface DistributionEntry {
  /** The plugin's package name; its manifest `name` must equal it. */
  readonly package: string;
  /** Semver range the plugin's manifest `version` must satisfy. */
  readonly range: string;
  /** An optional plugin may fail (or be disabled by config) without stopping the host. */
  readonly optional?: boolean;
  /** Produces the plugin; throwing (or rejecting) fails this plugin. */
  readonly load: () => Promise<PluginDefinition> | PluginDefinition;
}

/** The plugins a distribution is made of (docs/architecture.md §13), in their preferred order. */
export interface Distribution {
  readonly name: string;
  readonly plugins: readonly DistributionEntry[];
  /**
   * The front end the app starts when the person names none (`tui`, the id after `frontend:`); one of
   * its plugins must provide it. Undefined: the app has no default front end.
   */
  readonly defaultFrontend?: string;
  /**
   * Which package provides each front end id, when the distribution's author knows it ahead: a composition
   * root can then start that front end loading its plugin alone, before the workspace's other plugins boot.
   */
  readonly frontendPackages?: Readonly<Record<string, string>>;
}

/**
 * Refuses a distribution the host cannot load faithfully: a package named twice (which one would
 * win is arbitrary) or a range semver cannot read (every version would be refused for an unclear
 * reason). These are mistakes of whoever assembled the distribution, so they stop the whole load.
 */
export function assertDistributionValid(distribution: Distribution): void {
  const seen = new Set<string>();
  distribution.plugins.forEach((entry, index) => {
    if (seen.has(entry.package)) {
      throw new EnvelopeError(
        hostEnvelopeInit('DISTRIBUTION_INVALID', {
          plugin: entry.package,
          operation: 'plugin-host.load',
          failed_parameter: `$.plugins[${index}].package`,
          received_value: entry.package,
          expected: 'each package at most once',
          remediation: `Distribution "${distribution.name}" names ${entry.package} twice; keep one entry.`,
        }),
      );
    }
    seen.add(entry.package);
    if (semver.validRange(entry.range) === null) {
      throw new EnvelopeError(
        hostEnvelopeInit('DISTRIBUTION_INVALID', {
          plugin: entry.package,
          operation: 'plugin-host.load',
          failed_parameter: `$.plugins[${index}].range`,
          received_value: entry.range,
          expected: 'a semver range such as ^1.2.0',
          remediation: `Distribution "${distribution.name}" gives ${entry.package} a range semver cannot read; write one like ^1.2.0.`,
        }),
      );
    }
  });
}
