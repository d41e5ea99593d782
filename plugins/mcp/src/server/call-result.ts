import type { ApplyResult, Envelope } from '@nodwyn/plugin-api';
import { ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC error the SDK sends as it is: `code`, `message`, and the envelope as `data`. (The SDK's
 * `McpError` would prefix its message with "MCP error -32602:", and a client's `McpError` adds it again.)
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

/** The envelope's text, as a client shows it: the same JSON the model would read. */
export function envelopeText(env: Envelope): string {
  return JSON.stringify(env);
}

/**
 * A guarded call's outcome as an MCP `tools/call` answer. Arguments the guard refused before anything ran
 * (an unknown tool, or arguments that fail the tool's schema) are the request's fault: a JSON-RPC error
 * -32602 whose message is the envelope's text and whose `data` is the envelope. Any other failure is a
 * tool error: `isError`, the envelope's text as content and the envelope as `structuredContent`. A success
 * is its text (already through the text layers) and, when the primitive returned data, that data.
 */
export function callToolResult(result: ApplyResult): CallToolResult {
  if (!result.ok) {
    if (result.stage === 'preflight' || result.stage === 'resolve') throw new JsonRpcError(ErrorCode.InvalidParams, envelopeText(result.envelope), result.envelope);
    return { isError: true, content: [{ type: 'text', text: envelopeText(result.envelope) }], structuredContent: { ...result.envelope } };
  }
  const answer: CallToolResult = { content: [{ type: 'text', text: result.content }] };
  if (result.data !== undefined) answer.structuredContent = structured(result.data);
  return answer;
}

/** `structuredContent` is a JSON object: data of another shape is sent as `{ value }`. */
function structured(data: unknown): Record<string, unknown> {
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : { value: data };
}
