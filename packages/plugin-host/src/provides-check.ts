import { envelope, type Envelope, type Manifest } from '@nodwyn/plugin-api';
import { hostEnvelopeInit } from './errors.js';

/**
 * Compares what a plugin registered with what its manifest `provides` (minus `plugin:` entries, which
 * name plugins, not contributions). The two must be equal: an undeclared contribution could not be
 * required by anyone, and a declared one that never came would break whoever requires it.
 */
export function checkProvides(manifest: Manifest, registered: readonly string[]): Envelope | undefined {
  const declared = manifest.provides.filter((entry) => !entry.startsWith('plugin:'));
  const missing = declared.filter((entry) => !registered.includes(entry));
  const extra = registered.filter((entry) => !declared.includes(entry));
  if (missing.length === 0 && extra.length === 0) return undefined;
  const parts = [
    missing.length > 0 ? `declares but did not register ${missing.join(', ')}` : '',
    extra.length > 0 ? `registered but does not declare ${extra.join(', ')}` : '',
  ].filter((part) => part !== '');
  return envelope(
    hostEnvelopeInit('PLUGIN_PROVIDES_MISMATCH', {
      plugin: manifest.name,
      operation: 'plugin.register',
      failed_parameter: '$.provides',
      received_value: registered,
      expected: JSON.stringify(declared),
      remediation: `Plugin ${manifest.name} ${parts.join(' and ')}; make its manifest "provides" list exactly what register() contributes.`,
    }),
  );
}
