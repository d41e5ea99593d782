import { codedErrors } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope the client raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-mcp';

/** Every code of the envelopes the MCP client builds, with the one category it travels under. */
export const McpClientCodes = {
  /** The plugin's config section or `.mcp.json` is malformed. */
  MCP_CONFIG_INVALID: 'VALIDATION_FAILED',
  /** The server is not running (it failed to start, exited, or is restarting); the call was not sent. */
  MCP_SERVER_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  /** The connection broke while a read call was pending: nothing changed, the call can be repeated. */
  MCP_CONNECTION_LOST: 'UPSTREAM_UNAVAILABLE',
  /** The connection broke while a call that may change something was pending: it may or may not have run. */
  MCP_OUTCOME_UNKNOWN: 'OUTCOME_UNKNOWN',
  /** The server did not answer within the call's timeout. */
  MCP_CALL_TIMEOUT: 'TIMEOUT',
  /** The call was cancelled (Esc) and the server was told so. */
  MCP_CALL_CANCELLED: 'CANCELLED',
  /** The tool ran and reported a failure (`isError: true`). */
  MCP_TOOL_FAILED: 'PRECONDITION_FAILED',
  /** The server refused the arguments (JSON-RPC invalid params). */
  MCP_TOOL_ARGS_REJECTED: 'VALIDATION_FAILED',
  /** The server does not know the tool (any more). */
  MCP_TOOL_UNKNOWN: 'NOT_FOUND',
  /** The server answered with a protocol error or a result that is not a tool result. */
  MCP_PROTOCOL_ERROR: 'UNEXPECTED_RESPONSE',
  /** A request carries a secret handle and no egress plugin is loaded to substitute it. */
  MCP_SENDER_MISSING: 'PRECONDITION_FAILED',
  /** `nodwyn mcp` was called with a missing or malformed argument. */
  MCP_USAGE: 'VALIDATION_FAILED',
  /** `nodwyn mcp approve` names no server of the workspace's `.mcp.json`. */
  MCP_SERVER_UNKNOWN: 'NOT_FOUND',
  /** `nodwyn mcp approve` without `--yes` and without a person to ask. */
  MCP_APPROVAL_REQUIRED: 'CONFIRMATION_REQUIRED',
} as const;

/** A failure code of the MCP client. */
export type McpClientCode = keyof typeof McpClientCodes;

/** Envelope builders for the codes above. */
export const mcpClientErrors = codedErrors(PLUGIN_NAME, McpClientCodes, { operation: 'mcp.call' });
