import { RECEIVED_VALUE_MAX, type Category, type Envelope, type Retryable } from '@nodwyn/protocol';

/** The package name, stamped on every envelope the client raises itself. */
export const CLIENT_PACKAGE = '@nodwyn/client';

/**
 * Every failure code the client raises itself (the agent's own failures arrive as its envelopes), with
 * the one category each always travels under.
 */
export const ClientErrorCode = {
  /** The WebSocket could not be opened: nothing listens at the URL, or the upgrade was refused. */
  CLIENT_CONNECT_FAILED: 'TRANSPORT_FAILED',
  /** The daemon refused the token (HTTP 401 on the upgrade). */
  CLIENT_AUTH_REJECTED: 'AUTH_FAILED',
  /** The daemon refused the page's Origin (HTTP 403 on the upgrade). */
  CLIENT_ORIGIN_REJECTED: 'PERMISSION_DENIED',
  /** There is no WebSocket constructor: not a browser, and none was passed. */
  CLIENT_WEBSOCKET_MISSING: 'PRECONDITION_FAILED',
  /** The connection dropped before the agent answered a request. */
  CLIENT_CONNECTION_LOST: 'TRANSPORT_FAILED',
  /** The connection dropped while a prompt ran; the turn goes on in the daemon. */
  CLIENT_PROMPT_DETACHED: 'TRANSPORT_FAILED',
  /** The client is closed: by `close()`, or because its reconnect attempts ran out. */
  CLIENT_CLOSED: 'PRECONDITION_FAILED',
  /** A request's params fail the protocol's schema; nothing was sent. */
  CLIENT_PARAMS_INVALID: 'VALIDATION_FAILED',
  /** The agent's answer does not match the protocol's schema. */
  CLIENT_RESPONSE_INVALID: 'UNEXPECTED_RESPONSE',
  /** A frame or notification from the agent is not JSON or not the protocol's shape; it was dropped. */
  CLIENT_FRAME_INVALID: 'UNEXPECTED_RESPONSE',
  /** This client has no permission handler, so it leaves the question to the other attached clients. */
  CLIENT_PERMISSION_UNHANDLED: 'PRECONDITION_FAILED',
  /** `serve.json` is missing: no daemon runs for that nodwyn home. */
  CLIENT_SERVE_INFO_MISSING: 'NOT_FOUND',
  /** `serve.json` cannot be read or is not `{ url, http, token, pid }`. */
  CLIENT_SERVE_INFO_INVALID: 'VALIDATION_FAILED',
  /** Something failed in a way the protocol does not describe. */
  CLIENT_UNEXPECTED: 'INTERNAL',
} as const satisfies Record<string, Category>;

/** A failure code of the client. */
export type ClientErrorCode = keyof typeof ClientErrorCode;

/** What a caller states about a failure; the category and package come from the code. */
export interface ClientEnvelopeInit {
  remediation: string;
  operation?: string;
  http_status?: number;
  failed_parameter?: string;
  received_value?: unknown;
  expected?: string;
  retryable?: Retryable;
  next_action?: string;
}

const RETRYABLE_BY_CATEGORY: Partial<Record<Category, Retryable>> = {
  TRANSPORT_FAILED: 'after_delay',
  UNEXPECTED_RESPONSE: 'never',
  INTERNAL: 'never',
};

/**
 * The envelope for `code`, built to the protocol's EnvelopeSchema shape by hand: the client depends on
 * the protocol only (docs/architecture.md §2), never on plugin-api's builders.
 */
export function clientEnvelope(code: ClientErrorCode, init: ClientEnvelopeInit): Envelope {
  const category = ClientErrorCode[code];
  return {
    status: 'error',
    category,
    operation: init.operation ?? null,
    http_status: init.http_status ?? null,
    code,
    failed_parameter: init.failed_parameter ?? null,
    received_value: 'received_value' in init ? describeReceived(init.received_value) : null,
    expected: init.expected ?? null,
    remediation: init.remediation,
    retryable: init.retryable ?? RETRYABLE_BY_CATEGORY[category] ?? 'after_remediation',
    retry_after_ms: null,
    next_action: init.next_action ?? null,
    request_id: null,
    trace: { attempts: 0 },
    plugin: CLIENT_PACKAGE,
  };
}

/** Renders any value as the short text an envelope may carry, cut at RECEIVED_VALUE_MAX. */
export function describeReceived(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      // A cyclic or BigInt value cannot be JSON; its tag still says what it was.
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > RECEIVED_VALUE_MAX ? `${text.slice(0, RECEIVED_VALUE_MAX)}…` : text;
}
