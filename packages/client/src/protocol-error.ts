import { RequestError } from '@agentclientprotocol/sdk';
import { EnvelopeSchema, type Envelope } from '@nodwyn/protocol';
import { clientEnvelope, type ClientEnvelopeInit, type ClientErrorCode } from './errors.js';

/**
 * The JSON-RPC code of a failure the client raises itself (the connection, not the agent): in the
 * implementation-defined range, away from ACP's own codes (-32000 auth, -32002 not found); the envelope
 * says which failure it is.
 */
export const CLIENT_ERROR_CODE = -32099;

/** JSON-RPC's invalid params, also used when the client refuses params before sending them. */
export const INVALID_PARAMS_CODE = -32602;

/**
 * Every failure a client method rejects with: a JSON-RPC error the agent answered, or one the client
 * raised itself. `envelope` is set when the error's `data` is a nodwyn envelope (always, for the
 * client's own failures); `data` keeps whatever the agent sent.
 */
export class ProtocolError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The nodwyn envelope the error carries, when its `data` is one. */
  readonly envelope?: Envelope;
  /** The JSON-RPC error's `data`, as received. */
  readonly data?: unknown;

  constructor(code: number, message: string, options: { envelope?: Envelope; data?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProtocolError';
    this.code = code;
    if (options.envelope !== undefined) this.envelope = options.envelope;
    if (options.data !== undefined) this.data = options.data;
  }
}

/** The ProtocolError for one of the client's own codes; `cause` keeps the error it wraps. */
export function clientError(code: ClientErrorCode, init: ClientEnvelopeInit, cause?: unknown): ProtocolError {
  const envelope = clientEnvelope(code, init);
  const rpcCode = code === 'CLIENT_PARAMS_INVALID' ? INVALID_PARAMS_CODE : CLIENT_ERROR_CODE;
  return new ProtocolError(rpcCode, describeEnvelope(envelope), { envelope, data: envelope, cause });
}

/** The ProtocolError for a JSON-RPC error the agent answered; its `data` becomes `envelope` when it is one. */
export function fromRequestError(error: RequestError): ProtocolError {
  const parsed = EnvelopeSchema.safeParse(error.data);
  const envelope = parsed.success ? parsed.data : undefined;
  const message = envelope ? describeEnvelope(envelope) : error.message;
  return new ProtocolError(error.code, message, { envelope, data: error.data, cause: error });
}

/** The RequestError a client handler throws to answer the agent with one of the client's envelopes. */
export function clientRequestError(code: ClientErrorCode, init: ClientEnvelopeInit): RequestError {
  const envelope = clientEnvelope(code, init);
  return new RequestError(CLIENT_ERROR_CODE, describeEnvelope(envelope), envelope);
}

function describeEnvelope(envelope: Envelope): string {
  return `${envelope.category}${envelope.code ? ` ${envelope.code}` : ''}: ${envelope.remediation}`;
}
