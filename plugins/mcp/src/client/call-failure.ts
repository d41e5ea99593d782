import { isEnvelopeError, type EnvelopeError, type Tier } from '@nodwyn/plugin-api';
import { mcpClientErrors } from './codes.js';

/** JSON-RPC and MCP error codes the client tells apart (the SDK's `ErrorCode`). */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

/** What a failed call was. */
export interface FailedCall {
  readonly server: string;
  readonly tool: string;
  /** The model's name of the tool, the envelope's operation. */
  readonly operation: string;
  readonly tier: Tier;
  readonly timeoutMs: number;
}

function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * The request never got a JSON-RPC answer because the transport failed: a network error, an HTTP status
 * (the SDK's `StreamableHTTPError` carries it as a positive code; JSON-RPC codes are negative), a pipe to
 * a process that is gone. Not an envelope of ours, which is the kernel's abort reason or a refusal, nor
 * anything else the SDK throws (a result that fails its schema).
 */
export function isTransportFailure(error: unknown): boolean {
  if (isEnvelopeError(error)) return false;
  const code = codeOf(error);
  if (code !== undefined) return code > 0;
  const system = (error as { code?: unknown } | null)?.code;
  // fetch's network errors are TypeErrors; a broken pipe has a system code; the SDK without a transport says so.
  return error instanceof TypeError || typeof system === 'string' || /not connected/i.test(error instanceof Error ? error.message : '');
}

/** The connection broke with the call pending: a read can be repeated; anything else may have happened. */
export function connectionLost(call: FailedCall): EnvelopeError {
  if (call.tier === 'read') {
    return mcpClientErrors.error('MCP_CONNECTION_LOST', {
      operation: call.operation,
      retryable: 'after_delay',
      retry_after_ms: 1000,
      remediation: `The MCP server ${call.server} went away during the call to ${call.tool}; nodwyn restarts it. The tool only reads, so call it again.`,
    });
  }
  return mcpClientErrors.error('MCP_OUTCOME_UNKNOWN', {
    operation: call.operation,
    retryable: 'after_remediation',
    remediation: `The MCP server ${call.server} went away after it received the call to ${call.tool}, so it may or may not have run. nodwyn restarts the server; check its state before calling again.`,
  });
}

/**
 * The envelope of a call that failed in the SDK: the connection closed, the server's JSON-RPC error, or a
 * timeout. Never the server's error message verbatim: it is not redacted like a result would be.
 */
export function callFailure(error: unknown, call: FailedCall): EnvelopeError {
  if (isEnvelopeError(error)) return error;
  const code = codeOf(error);
  if (code === CONNECTION_CLOSED || isTransportFailure(error)) return connectionLost(call);
  if (code === REQUEST_TIMEOUT) {
    return mcpClientErrors.error('MCP_CALL_TIMEOUT', {
      operation: call.operation,
      retryable: call.tier === 'read' ? 'after_delay' : 'after_remediation',
      remediation: `The MCP server ${call.server} did not answer ${call.tool} within ${call.timeoutMs} ms; the call was cancelled. Narrow the request, or raise timeout_ms for the server.`,
    }, error);
  }
  if (code === INVALID_PARAMS) {
    return mcpClientErrors.error('MCP_TOOL_ARGS_REJECTED', {
      operation: call.operation,
      retryable: 'after_remediation',
      remediation: `The MCP server ${call.server} refused the arguments of ${call.tool} (or no longer has the tool). Check them against the tool's input schema.`,
    }, error);
  }
  if (code === METHOD_NOT_FOUND) {
    return mcpClientErrors.error('MCP_TOOL_UNKNOWN', {
      operation: call.operation,
      remediation: `The MCP server ${call.server} does not offer tools/call for ${call.tool}.`,
    }, error);
  }
  return mcpClientErrors.error('MCP_PROTOCOL_ERROR', {
    operation: call.operation,
    retryable: 'never',
    remediation: `The MCP server ${call.server} answered the call to ${call.tool} with an error${code === undefined ? ' or a result that is not a valid tool result' : ` (JSON-RPC ${code})`}.`,
  }, error);
}
