import { envelope, type Envelope, type Manifest } from '@nodwyn/plugin-api';
import { hostEnvelopeInit } from './errors.js';

/** A plugin whose requirement nothing provides. `unknown` names entries whose manifest never loaded. */
export function requirementMissing(manifest: Manifest, missing: readonly string[], unknown: readonly string[]): Envelope {
  const first = missing[0] ?? '';
  const hint = unknown.length > 0 ? ` It may come from ${unknown.join(', ')}, which did not load or are disabled.` : '';
  return envelope(
    hostEnvelopeInit('PLUGIN_REQUIREMENT_MISSING', {
      plugin: manifest.name,
      operation: 'plugin.load',
      failed_parameter: `$.requires[${manifest.requires.indexOf(first)}]`,
      received_value: missing,
      expected: 'a loaded plugin that provides it',
      remediation: `${manifest.name} requires ${missing.join(', ')}, which no loaded plugin provides; add a plugin that provides it to the distribution.${hint}`,
    }),
  );
}

/** A plugin caught in a `requires` cycle; `cycle` is the loop as `a → b → a`. */
export function requiresCycle(manifest: Manifest, cycle: readonly string[]): Envelope {
  return envelope(
    hostEnvelopeInit('PLUGIN_REQUIRES_CYCLE', {
      plugin: manifest.name,
      operation: 'plugin.load',
      failed_parameter: '$.requires',
      received_value: cycle.join(' → '),
      remediation: `Plugins require each other in a cycle: ${cycle.join(' → ')}; break it by moving the shared part into one plugin or dropping a requirement.`,
    }),
  );
}

/** A plugin skipped because every plugin providing one of its requirements failed. */
export function dependencyFailed(manifest: Manifest, requirement: string, failed: readonly { readonly name: string; readonly code: string | null }[], operation: string): Envelope {
  const names = failed.map((dependency) => `${dependency.name} (${dependency.code ?? 'failed'})`).join(', ');
  return envelope(
    hostEnvelopeInit('PLUGIN_DEPENDENCY_FAILED', {
      plugin: manifest.name,
      operation,
      failed_parameter: `$.requires[${manifest.requires.indexOf(requirement)}]`,
      received_value: requirement,
      remediation: `${manifest.name} was skipped: it requires ${requirement}, and ${names} failed; fix that plugin first (see its envelope in \`nodwyn plugins\`).`,
    }),
  );
}
