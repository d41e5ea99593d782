import { RECEIVED_VALUE_MAX, type Category, type Envelope, type Retryable } from '@nodwyn/protocol';
import { PluginApiCodes } from './errors.js';

/** What a caller states to build an envelope; everything else gets a neutral default. */
export interface EnvelopeInit {
  category: Category;
  code: string;
  remediation: string;
  operation?: string;
  http_status?: number;
  failed_parameter?: string;
  received_value?: unknown;
  expected?: string;
  retryable?: Retryable;
  retry_after_ms?: number;
  next_action?: string;
  request_id?: string;
  attempts?: number;
  plugin?: string;
  /** When true, `received_value` is replaced by a marker instead of shown. */
  sensitive?: boolean;
}

const DEFAULT_RETRYABLE: Partial<Record<Category, Retryable>> = {
  RATE_LIMITED: 'after_delay',
  UPSTREAM_UNAVAILABLE: 'after_delay',
  TRANSPORT_FAILED: 'after_delay',
  TIMEOUT: 'after_delay',
  OUTCOME_UNKNOWN: 'same_key_only',
  VALIDATION_FAILED: 'after_remediation',
  NOT_FOUND: 'after_remediation',
  PERMISSION_DENIED: 'after_remediation',
  CONFIRMATION_REQUIRED: 'after_remediation',
  AUTH_FAILED: 'after_remediation',
  PRECONDITION_FAILED: 'after_remediation',
};

/** Renders any value as the short, cut text an envelope may carry. */
export function describeReceived(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = 'undefined';
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > RECEIVED_VALUE_MAX ? `${text.slice(0, RECEIVED_VALUE_MAX)}…` : text;
}

/** Builds a complete envelope. */
export function envelope(init: EnvelopeInit): Envelope {
  let received: string | null = null;
  if (init.sensitive && init.received_value !== undefined) received = '[sensitive]';
  else if ('received_value' in init) received = describeReceived(init.received_value);
  return {
    status: 'error',
    category: init.category,
    operation: init.operation ?? null,
    http_status: init.http_status ?? null,
    code: init.code,
    failed_parameter: init.failed_parameter ?? null,
    received_value: received,
    expected: init.expected ?? null,
    remediation: init.remediation,
    retryable: init.retryable ?? DEFAULT_RETRYABLE[init.category] ?? 'never',
    retry_after_ms: init.retry_after_ms ?? null,
    next_action: init.next_action ?? null,
    request_id: init.request_id ?? null,
    trace: { attempts: init.attempts ?? 0 },
    plugin: init.plugin ?? null,
  };
}

/** An error that carries an envelope. Throw it from handlers, providers and stages to fail with that envelope. */
export class EnvelopeError extends Error {
  /** The envelope this error stands for. */
  readonly envelope: Envelope;

  constructor(value: Envelope | EnvelopeInit, options?: { cause?: unknown }) {
    const env = 'status' in value ? value : envelope(value);
    super(`${env.category}${env.code ? ` ${env.code}` : ''}: ${env.remediation}`, options);
    this.name = 'EnvelopeError';
    this.envelope = env;
  }
}

/** Throws an envelope error built from `init`. */
export function fail(init: EnvelopeInit): never {
  throw new EnvelopeError(init);
}

/** True when `error` carries an envelope. */
export function isEnvelopeError(error: unknown): error is EnvelopeError {
  return error instanceof EnvelopeError || (error instanceof Error && 'envelope' in error && isEnvelope((error as { envelope: unknown }).envelope));
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && (value as { status?: unknown }).status === 'error';
}

/**
 * Turns anything thrown into an envelope. Foreign errors become `INTERNAL` with their message (never a
 * stack); `context` fills what the error itself does not say.
 */
export function toEnvelope(error: unknown, context: { operation?: string; plugin?: string; code?: string } = {}): Envelope {
  if (isEnvelopeError(error)) {
    const env = error.envelope;
    return {
      ...env,
      operation: env.operation ?? context.operation ?? null,
      plugin: env.plugin ?? context.plugin ?? null,
    };
  }
  const message = error instanceof Error ? error.message : describeReceived(error);
  return envelope({
    category: 'INTERNAL',
    code: context.code ?? PluginApiCodes.UNEXPECTED_ERROR,
    operation: context.operation,
    plugin: context.plugin,
    remediation: `An unexpected error occurred: ${describeReceived(message)}. This is a bug in ${context.plugin ?? 'nodwyn'}; report it with the session id.`,
  });
}
