import semver, { type Comparator, type Range } from 'semver';
import { envelope, type Envelope } from '@nodwyn/plugin-api';
import { hostEnvelopeInit } from './errors.js';

/**
 * True when `range` accepts every future API version: empty, `*`, `x`, `>=0.0.0`, or any alternative
 * (`||` branch) without an upper bound. Such a plugin claims to work with APIs that do not exist yet,
 * so the host cannot trust its claim. An invalid range is not vague (it is invalid): returns false.
 */
export function isVagueRange(range: string): boolean {
  let parsed: Range;
  try {
    parsed = new semver.Range(range);
  } catch {
    // Invalid ranges are reported by checkApiRange with their own message, not as vague.
    return false;
  }
  return parsed.set.some((comparators) => !comparators.some(isUpperBound));
}

function isUpperBound(comparator: Comparator): boolean {
  // An operator-less comparator with a value is an exact version; without a value it is "any".
  return comparator.operator === '<' || comparator.operator === '<=' || (comparator.operator === '' && comparator.value !== '');
}

/**
 * Checks a plugin's `apiVersion` range against the host's API version; returns the envelope that
 * refuses it, or undefined when the plugin may load.
 */
export function checkApiRange(plugin: string, range: string, hostApiVersion: string): Envelope | undefined {
  const base = { plugin, operation: 'plugin.load', failed_parameter: '$.apiVersion', received_value: range };
  if (isVagueRange(range)) {
    return envelope(
      hostEnvelopeInit('PLUGIN_API_RANGE_VAGUE', {
        ...base,
        expected: `a bounded range such as ^${hostApiVersion}`,
        remediation: `Plugin ${plugin} declares apiVersion "${range}", which has no upper bound; declare the API versions it was built against, e.g. "^${hostApiVersion}".`,
      }),
    );
  }
  if (semver.validRange(range) === null) {
    return envelope(
      hostEnvelopeInit('PLUGIN_MANIFEST_INVALID', {
        ...base,
        expected: 'a semver range such as ^0.1.0',
        remediation: `Plugin ${plugin} declares apiVersion "${range}", which is not a semver range; fix its manifest.`,
      }),
    );
  }
  if (!semver.satisfies(hostApiVersion, range)) {
    return envelope(
      hostEnvelopeInit('PLUGIN_API_INCOMPATIBLE', {
        ...base,
        expected: `a range satisfied by host API ${hostApiVersion}`,
        remediation: `Plugin ${plugin} needs plugin API "${range}" but this host implements ${hostApiVersion}; install a version of ${plugin} built for API ${hostApiVersion}, or a host that satisfies "${range}".`,
      }),
    );
  }
  return undefined;
}
