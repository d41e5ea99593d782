/** Codes of the envelopes plugin-api itself builds. */
export const PluginApiCodes = {
  /** A foreign error (not an envelope) was turned into an `INTERNAL` envelope. */
  UNEXPECTED_ERROR: 'UNEXPECTED_ERROR',
  /** `definePlugin` was given a manifest that does not match `ManifestSchema`. */
  PLUGIN_MANIFEST_INVALID: 'PLUGIN_MANIFEST_INVALID',
  /** `definePlugin` was given a `deps` entry that is neither a token nor made by `optional` or `lookup` (VALIDATION_FAILED). */
  PLUGIN_DEPENDENCY_INVALID: 'PLUGIN_DEPENDENCY_INVALID',
  /** A `deps` entry's token needs a permission the manifest does not list (VALIDATION_FAILED). */
  PLUGIN_DEPENDENCY_PERMISSION_MISSING: 'PLUGIN_DEPENDENCY_PERMISSION_MISSING',
  /** A model's tool arguments nest objects and arrays deeper than `TOOL_ARGS_LIMITS.maxDepth` (LIMIT_EXCEEDED). */
  TOOL_ARGS_TOO_DEEP: 'TOOL_ARGS_TOO_DEEP',
  /** A model's tool arguments are larger than `TOOL_ARGS_LIMITS.maxBytes` (LIMIT_EXCEEDED). */
  TOOL_ARGS_TOO_LARGE: 'TOOL_ARGS_TOO_LARGE',
} as const;
