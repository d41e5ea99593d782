import { codedErrors } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-capabilities';

/** Every failure code of this plugin, with the one category it travels under. */
export const CapabilityCode = {
  /** No current, enabled capability has that name. */
  CAPABILITY_NOT_FOUND: 'NOT_FOUND',
  /** The version asked for (show --version, rollback --to) does not exist. */
  CAPABILITY_VERSION_NOT_FOUND: 'NOT_FOUND',
  /** The capability exists but its current version is disabled or removed. */
  CAPABILITY_DISABLED: 'PRECONDITION_FAILED',
  /** The name was disabled or removed by a person; registering it again needs a person's confirmation. */
  CAPABILITY_STOPPED: 'CONFIRMATION_REQUIRED',
  /** The name does not match the configured name format. */
  CAPABILITY_NAME_INVALID: 'VALIDATION_FAILED',
  /** The name is a tool another plugin provides. */
  CAPABILITY_NAME_TAKEN: 'PRECONDITION_FAILED',
  /** The TypeScript does not parse; the envelope carries the compiler's message and position. */
  CAPABILITY_CODE_INVALID: 'VALIDATION_FAILED',
  /** The input schema is not a JSON Schema for an object that nodwyn can check arguments with. */
  CAPABILITY_SCHEMA_INVALID: 'VALIDATION_FAILED',
  /** An example's args, expectation or predicate is malformed. */
  CAPABILITY_EXAMPLE_INVALID: 'VALIDATION_FAILED',
  /** An example ran and failed: it threw, or its output did not match. Admission is refused. */
  CAPABILITY_EXAMPLE_FAILED: 'VALIDATION_FAILED',
  /** execute_capability's args do not match the capability's input schema. */
  CAPABILITY_ARGS_INVALID: 'VALIDATION_FAILED',
  /** Code larger than `max_code_bytes`. */
  CAPABILITY_CODE_TOO_LARGE: 'LIMIT_EXCEEDED',
  /** `max_capabilities` enabled capabilities exist already. */
  CAPABILITY_LIMIT: 'LIMIT_EXCEEDED',
  /** esbuild cannot be loaded, so no code can be type-stripped (an install problem). */
  CAPABILITY_COMPILER_MISSING: 'PRECONDITION_FAILED',
  /** The requested sandbox runner is not loaded. */
  CAPABILITY_RUNNER_MISSING: 'PRECONDITION_FAILED',
  /** The plugin's section of the config is malformed. */
  CAPABILITY_CONFIG_INVALID: 'VALIDATION_FAILED',
  /** A stored capability fails its own content hash, or has no signed admission event: the registry was edited outside nodwyn. */
  CAPABILITY_TAMPERED: 'INTERNAL',
} as const;

/** A failure code of this plugin. */
export type CapabilityCode = keyof typeof CapabilityCode;

export const { envelope: capabilityEnvelope, error: capabilityError } = codedErrors(PLUGIN_NAME, CapabilityCode);
