import { ContractCodes, toEnvelope, type Category, type Envelope, type EnvelopeInit } from '@nodwyn/plugin-api';

/**
 * Every code the plugin host emits, with its category. Keeping the category next to the code means a
 * code always fails the same way, wherever it is raised.
 */
export const PLUGIN_HOST_ERRORS = {
  DISTRIBUTION_INVALID: 'VALIDATION_FAILED',
  PLUGIN_REQUIRED_DISABLED: 'PRECONDITION_FAILED',
  PLUGIN_NOT_FOUND: 'NOT_FOUND',
  PLUGIN_EXPORT_MISSING: 'VALIDATION_FAILED',
  PLUGIN_EXPORT_AMBIGUOUS: 'VALIDATION_FAILED',
  PLUGIN_LOAD_FAILED: 'INTERNAL',
  PLUGIN_EXPORTS_UNUSABLE: 'VALIDATION_FAILED',
  PLUGIN_SYNTAX_ERROR: 'VALIDATION_FAILED',
  PLUGIN_IMPORT_MISSING: 'PRECONDITION_FAILED',
  PLUGIN_MODULE_THREW: 'PRECONDITION_FAILED',
  PLUGIN_SCHEMA_ZOD3: 'VALIDATION_FAILED',
  PLUGIN_DEFINITION_INVALID: 'VALIDATION_FAILED',
  PLUGIN_MANIFEST_INVALID: 'VALIDATION_FAILED',
  PLUGIN_NAME_MISMATCH: 'PRECONDITION_FAILED',
  PLUGIN_VERSION_MISMATCH: 'PRECONDITION_FAILED',
  PLUGIN_API_RANGE_VAGUE: 'VALIDATION_FAILED',
  PLUGIN_API_INCOMPATIBLE: 'PRECONDITION_FAILED',
  PLUGIN_REQUIREMENT_MISSING: 'PRECONDITION_FAILED',
  PLUGIN_REQUIRES_CYCLE: 'PRECONDITION_FAILED',
  PLUGIN_DEPENDENCY_FAILED: 'PRECONDITION_FAILED',
  PLUGIN_PROVIDES_MISMATCH: 'VALIDATION_FAILED',
  PLUGIN_CONTRIBUTION_INVALID: 'VALIDATION_FAILED',
  PLUGIN_CONTRIBUTION_DUPLICATE: 'PRECONDITION_FAILED',
  PLUGIN_REGISTRATION_CLOSED: 'PRECONDITION_FAILED',
  [ContractCodes.PLUGIN_PERMISSION_UNDECLARED]: 'PERMISSION_DENIED',
  [ContractCodes.PLUGIN_UNLOADED]: 'PRECONDITION_FAILED',
  [ContractCodes.SERVICE_NOT_FOUND]: 'NOT_FOUND',
  [ContractCodes.SERVICE_UNDECLARED]: 'PERMISSION_DENIED',
  PLUGIN_REGISTER_FAILED: 'INTERNAL',
  PLUGIN_START_FAILED: 'INTERNAL',
  PLUGIN_STOP_FAILED: 'INTERNAL',
  PLUGIN_START_TIMEOUT: 'TIMEOUT',
  PLUGIN_STOP_TIMEOUT: 'TIMEOUT',
  PLUGIN_HOST_PHASE: 'PRECONDITION_FAILED',
} as const satisfies Record<string, Category>;

/** A code the plugin host emits. */
export type PluginHostErrorCode = keyof typeof PLUGIN_HOST_ERRORS;

/** Names the host itself in envelopes that concern no single plugin (lifecycle misuse). */
export const PLUGIN_HOST_PACKAGE = '@nodwyn/plugin-host';

/** What a caller states for a host envelope; the category follows from the code. */
export type HostEnvelopeInit = Omit<EnvelopeInit, 'category' | 'code' | 'plugin'> & { readonly plugin: string };

/** Builds the init of a host envelope with its category filled from the code. */
export function hostEnvelopeInit(code: PluginHostErrorCode, init: HostEnvelopeInit): EnvelopeInit {
  return { ...init, category: PLUGIN_HOST_ERRORS[code], code };
}

/**
 * Turns whatever a plugin (or its loader) threw into an envelope that names that plugin. The plugin is
 * forced rather than defaulted: an envelope a plugin re-threw from elsewhere must still be reported
 * against the plugin that failed.
 */
export function pluginEnvelope(error: unknown, plugin: string, operation: string, code: PluginHostErrorCode): Envelope {
  return { ...toEnvelope(error, { operation, plugin, code }), plugin };
}
