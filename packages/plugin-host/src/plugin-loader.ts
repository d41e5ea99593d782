import { envelope, type Envelope } from '@nodwyn/plugin-api';
import type { Distribution, DistributionEntry } from './distribution.js';
import { hostEnvelopeInit, pluginEnvelope } from './errors.js';
import { checkDefinition } from './manifest-check.js';
import type { PluginRecord } from './plugin-record.js';

/** What loading needs from the host's options. */
export interface LoadOptions {
  readonly apiVersion: string;
  readonly disabled: readonly string[];
}

/**
 * Loads every entry of a distribution (concurrently: imports are independent) and checks what each
 * returned. Never throws: a failed entry becomes a `failed` record carrying its envelope.
 */
export function loadRecords(distribution: Distribution, options: LoadOptions): Promise<PluginRecord[]> {
  return Promise.all(distribution.plugins.map((entry) => loadRecord(entry, options)));
}

async function loadRecord(entry: DistributionEntry, options: LoadOptions): Promise<PluginRecord> {
  const base = { entry, name: entry.package, optional: entry.optional === true };
  if (options.disabled.includes(entry.package)) {
    // Disabled means not even imported: a plugin's module may have side effects the person turned off.
    return base.optional ? { ...base, state: 'disabled' } : { ...base, state: 'failed', envelope: requiredDisabled(entry.package) };
  }
  let raw: unknown;
  try {
    raw = await entry.load();
  } catch (error) {
    return { ...base, state: 'failed', envelope: pluginEnvelope(error, entry.package, 'plugin.load', 'PLUGIN_LOAD_FAILED') };
  }
  const check = checkDefinition(raw, entry, options.apiVersion);
  return check.ok
    ? { ...base, state: 'loaded', manifest: check.manifest, definition: check.definition, dependencies: check.dependencies }
    : { ...base, state: 'failed', manifest: check.manifest, envelope: check.envelope };
}

function requiredDisabled(plugin: string): Envelope {
  return envelope(
    hostEnvelopeInit('PLUGIN_REQUIRED_DISABLED', {
      plugin,
      operation: 'plugin.load',
      failed_parameter: 'disabled',
      received_value: plugin,
      remediation: `The configuration disables ${plugin}, but the distribution needs it; remove it from the disabled plugins or use a distribution that marks it optional.`,
    }),
  );
}
