import { RequestError } from '@agentclientprotocol/sdk';
import { clientError, fromRequestError, ProtocolError } from './protocol-error.js';

/** Where the client stood when a request failed. */
export interface FailureContext {
  /** The connection the request went out on has closed. */
  readonly connectionClosed: boolean;
  /** `close()` was called. */
  readonly clientClosed: boolean;
  /** The client comes back by itself (a WebSocket transport with reconnect on). */
  readonly reconnects: boolean;
  /** The request was `session/prompt`, whose turn outlives the connection. */
  readonly prompt: boolean;
}

/**
 * The ProtocolError a request rejects with: the agent's JSON-RPC error as it came, or the client's own
 * envelope saying what a dropped connection means for this request.
 */
export function requestFailure(error: unknown, method: string, context: FailureContext): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof RequestError) return fromRequestError(error);
  if (!context.connectionClosed) {
    return clientError('CLIENT_UNEXPECTED', { operation: method, remediation: `${method} failed in the client (${messageOf(error)}); this is a bug in @nodwyn/client.` }, error);
  }
  if (context.clientClosed) {
    return clientError('CLIENT_CLOSED', { operation: method, remediation: `This client was closed before the agent answered ${method}.` }, error);
  }
  if (context.prompt && context.reconnects) {
    return clientError(
      'CLIENT_PROMPT_DETACHED',
      {
        operation: method,
        retryable: 'never',
        next_action: 'wait for the connection event "open", then for the session\'s turn.ended log event',
        remediation: 'The connection dropped while the turn ran. The turn goes on in the daemon, and its events arrive as log events once the client has reconnected; do not send the prompt again.',
      },
      error,
    );
  }
  return clientError(
    'CLIENT_CONNECTION_LOST',
    {
      operation: method,
      retryable: context.reconnects ? 'after_delay' : 'after_remediation',
      remediation: context.reconnects
        ? `The connection dropped before the agent answered ${method}; the client reconnects by itself. Whether the request took effect is unknown: check before sending it again.`
        : `The connection to the agent ended before it answered ${method}; connect again.`,
    },
    error,
  );
}

/** An error's message, or the thrown value as text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
