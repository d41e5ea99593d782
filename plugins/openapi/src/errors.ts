import { codedErrors, type Category } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-openapi';

/**
 * Every failure code this plugin raises, with the one category it always travels under. The operation
 * runtime's own codes (retries, tokens, unknown outcomes) come from `@nodwyn/plugin-api/transport`.
 */
export const OpenApiErrorCode = {
  /** The document file cannot be read (missing, permissions, too large). */
  OPENAPI_DOCUMENT_UNREADABLE: 'PRECONDITION_FAILED',
  /** The document is not JSON or YAML. */
  OPENAPI_DOCUMENT_SYNTAX: 'VALIDATION_FAILED',
  /** The document parses but is not a valid OpenAPI 3.0 or 3.1 document. */
  OPENAPI_DOCUMENT_INVALID: 'VALIDATION_FAILED',
  /** A `$ref` points at a URL or outside the document's folder; only local files next to it are read. */
  OPENAPI_REF_REFUSED: 'PERMISSION_DENIED',
  /** The document names no usable server URL and none was given with `--base-url`. */
  OPENAPI_SERVER_MISSING: 'VALIDATION_FAILED',
  /** `--only` or `operations` names an operation the document does not have. */
  OPENAPI_OPERATION_UNKNOWN: 'NOT_FOUND',
  /** An `x-agent` entry does not have the expected shape. */
  OPENAPI_X_AGENT_INVALID: 'VALIDATION_FAILED',
  /** openapi.toml or the plugin's config section is malformed. */
  OPENAPI_CONFIG_INVALID: 'VALIDATION_FAILED',
  /** `nodwyn openapi remove` names no registered document. */
  OPENAPI_API_UNKNOWN: 'NOT_FOUND',
  /** `nodwyn openapi` or `nodwyn mock` was called with a missing or malformed argument. */
  OPENAPI_USAGE: 'VALIDATION_FAILED',
  /** A request carries a secret handle and no egress plugin is loaded to substitute it. */
  OPENAPI_SENDER_MISSING: 'PRECONDITION_FAILED',
  /** `nodwyn openapi login` names no oauth2 scheme with an authorization code flow, or an unknown one. */
  OPENAPI_OAUTH_SCHEME_MISSING: 'NOT_FOUND',
  /** OAuth2 tokens live in the keychain, and no keychain plugin is loaded. */
  OPENAPI_KEYCHAIN_MISSING: 'PRECONDITION_FAILED',
  /** `nodwyn openapi login` got no authorization in time, or the authorization server refused it. */
  OPENAPI_LOGIN_FAILED: 'PERMISSION_DENIED',
  /** The mock could not listen (port in use, permissions). */
  MOCK_LISTEN_FAILED: 'PRECONDITION_FAILED',
  /** A fault injection spec cannot be parsed. */
  MOCK_INJECT_INVALID: 'VALIDATION_FAILED',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type OpenApiErrorCode = keyof typeof OpenApiErrorCode;

const coded = codedErrors(PLUGIN_NAME, OpenApiErrorCode);

/** The envelope for `code`, with its category and this plugin filled in. */
export const openApiEnvelope = coded.envelope;

/** Builds the envelope error for `code`; `cause` keeps the foreign error it wraps. */
export const openApiError = coded.error;
