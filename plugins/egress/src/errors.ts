import { codedErrors, type Category, type EnvelopeInit } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-egress';

/**
 * Every failure code this plugin raises, with the one category it always travels under, so a code can
 * never be raised under two categories by two different paths.
 */
export const EgressErrorCode = {
  /** A secret class (from a handle or a taint tag) is not bound to the destination, method and position. */
  GUARD_EGRESS_UNBOUND: 'PERMISSION_DENIED',
  /** A secret or tainted value would travel over plain http to a host that is not loopback. */
  GUARD_EGRESS_INSECURE: 'PERMISSION_DENIED',
  /** A `{{secret:NAME}}` handle names no secret in the keychain. */
  SECRET_UNKNOWN: 'NOT_FOUND',
  /** An egress target's URL cannot be parsed, so the stage cannot check it. */
  EGRESS_TARGET_INVALID: 'VALIDATION_FAILED',
  /** `policy.allow_insecure_http` in config.toml is not a boolean. */
  CONFIG_INVALID: 'VALIDATION_FAILED',
  /** A dependency of the egress stage (keychain, taint tracker) failed; the call is denied. */
  EGRESS_CHECK_FAILED: 'INTERNAL',
  /** bindings.toml is not valid TOML. */
  BINDINGS_INVALID_TOML: 'VALIDATION_FAILED',
  /** bindings.toml parses but does not match the binding table's shape. */
  BINDINGS_INVALID: 'VALIDATION_FAILED',
  /** bindings.toml could not be read or written (permissions, disk). */
  BINDINGS_IO_FAILED: 'PRECONDITION_FAILED',
  /** `nodwyn bind rm` found nothing to remove. */
  BINDING_NOT_FOUND: 'NOT_FOUND',
  /** `nodwyn bind` was called with a missing or malformed argument. */
  BIND_USAGE: 'VALIDATION_FAILED',
  /** fetch refused to build the request after substitution (e.g. a secret not valid in a header). */
  HTTP_REQUEST_INVALID: 'VALIDATION_FAILED',
  /** The connection failed: refused, reset, DNS, TLS. */
  HTTP_TRANSPORT_FAILED: 'TRANSPORT_FAILED',
  /** No response within `timeout_ms`. */
  HTTP_TIMEOUT: 'TIMEOUT',
  /** The call was cancelled while the request was in flight. */
  HTTP_CANCELLED: 'CANCELLED',
  /** More than the allowed number of same-origin redirects. */
  HTTP_TOO_MANY_REDIRECTS: 'UNEXPECTED_RESPONSE',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type EgressErrorCode = keyof typeof EgressErrorCode;

/** What a caller states about a failure; the category and plugin come from the code. */
export type EgressErrorInit = Omit<EnvelopeInit, 'category' | 'code' | 'plugin'>;

const coded = codedErrors(PLUGIN_NAME, EgressErrorCode);

/** The envelope for `code`, with its category and this plugin filled in. */
export const egressEnvelope = coded.envelope;

/** Builds the envelope error for `code`; `cause` keeps the foreign error it wraps. */
export const egressError = coded.error;
