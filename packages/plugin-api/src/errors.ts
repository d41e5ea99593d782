/** Codes of the envelopes plugin-api itself builds. */
export const PluginApiCodes = {
  /** A foreign error (not an envelope) was turned into an `INTERNAL` envelope. */
  UNEXPECTED_ERROR: 'UNEXPECTED_ERROR',
  /** `definePlugin` was given a manifest that does not match `ManifestSchema`. */
  PLUGIN_MANIFEST_INVALID: 'PLUGIN_MANIFEST_INVALID',
} as const;
