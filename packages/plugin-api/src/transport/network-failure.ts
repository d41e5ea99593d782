import type { Envelope } from '@nodwyn/protocol';
import { transportEnvelope } from './codes.js';
import { scrubServerText } from './provider-error.js';

/** Who failed, for `plugin`, `operation` and the wording of a remediation. */
export interface FailureContext {
  readonly provider: string;
  readonly operation: string;
}

/** The envelope of a call the caller aborted. */
export function cancelledEnvelope(context: FailureContext, attempts = 0): Envelope {
  return transportEnvelope('CANCELLED', {
    operation: context.operation,
    plugin: context.provider,
    attempts,
    remediation: `The ${context.operation} call to ${context.provider} was cancelled; nothing more is sent. What had arrived is kept. Send the message again to get a complete answer.`,
  });
}

/**
 * The envelope of a stream that broke after content had arrived. It is never replayed: the same request
 * could produce a different or duplicated answer, so a person or the model decides how to go on.
 */
export function streamBrokenEnvelope(context: FailureContext, reason: string, from?: Envelope): Envelope {
  return transportEnvelope('STREAM_BROKEN', {
    operation: context.operation,
    plugin: context.provider,
    http_status: from?.http_status ?? undefined,
    request_id: from?.request_id ?? undefined,
    attempts: from?.trace.attempts,
    retryable: 'after_remediation',
    remediation: `The answer from ${context.provider} broke off after part of it had arrived (${reason}). What arrived is kept in the log; nothing was replayed automatically. Ask the model to continue, or send the message again.`,
  });
}

/** Whether `error` is an abort: fetch's AbortError or an SDK's APIUserAbortError. */
export function isAbortError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'AbortError' || error.constructor.name === 'APIUserAbortError';
}

/** The first system error code (ECONNRESET, UND_ERR_SOCKET, …) and the innermost message of a cause chain. */
function connectionFacts(error: unknown): { code?: string; message: string } {
  let code: string | undefined;
  let message = 'unknown error';
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const own = (current as { code?: unknown }).code;
    if (code === undefined && typeof own === 'string') code = own;
    if (current.message !== '') message = current.message;
    current = current.cause;
  }
  return code === undefined ? { message } : { code, message };
}

function isTlsCode(code: string): boolean {
  return /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code);
}

/**
 * A connection-level failure (reset, refused, DNS, TLS, socket timeout, body cut). `afterContent` true
 * means content had already been delivered: then it is not retryable blindly and the remediation says
 * what arrived is kept. An abort is CANCELLED, never a connection failure.
 */
export function networkFailureEnvelope(error: unknown, context: { provider: string; operation: string; afterContent: boolean }): Envelope {
  if (isAbortError(error)) return cancelledEnvelope(context);
  const { code, message } = connectionFacts(error);
  const reason = scrubServerText(code === undefined || message.includes(code) ? message : `${code}: ${message}`, 120);
  if (context.afterContent) return streamBrokenEnvelope(context, reason);
  const base = { operation: context.operation, plugin: context.provider };
  const target = `${context.provider} (${reason})`;
  if (code !== undefined && isTlsCode(code)) {
    return transportEnvelope('CONNECTION_FAILED', {
      ...base,
      retryable: 'after_remediation',
      remediation: `The TLS connection to ${target} failed: its certificate was not accepted. Check --base-url and the system's CA certificates; nodwyn never skips the check.`,
    });
  }
  if (code === 'ENOTFOUND') {
    return transportEnvelope('CONNECTION_FAILED', {
      ...base,
      retryable: 'after_remediation',
      remediation: `The host of ${target} could not be resolved. Check the host in --base-url and the network.`,
    });
  }
  const refused = code === 'ECONNREFUSED' ? ' If it is a local model server, start it; otherwise check --base-url.' : '';
  return transportEnvelope('CONNECTION_FAILED', {
    ...base,
    remediation: `The connection to ${target} failed before any answer arrived.${refused} Wait a little, then send the message again.`,
  });
}
