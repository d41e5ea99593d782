import { codedErrors } from '@nodwyn/plugin-api';

/**
 * Every code of the envelopes `nodwyn mcp serve` builds itself (the guard's own are the kernel's), with
 * the one category it travels under.
 */
export const McpServerCodes = {
  /** An HTTP request without the bearer token, or with another one. */
  MCP_SERVE_UNAUTHORIZED: 'AUTH_FAILED',
  /** An HTTP request from a web page's origin, or for another host name than the loopback one served. */
  MCP_SERVE_FORBIDDEN: 'PERMISSION_DENIED',
  /** An HTTP request for another path than `/mcp`. */
  MCP_SERVE_NOT_FOUND: 'NOT_FOUND',
  /** An HTTP request body over the size the server reads. */
  MCP_SERVE_BODY_TOO_LARGE: 'LIMIT_EXCEEDED',
  /** A request naming an MCP session this server does not have (ended, or never made). */
  MCP_SERVE_SESSION_UNKNOWN: 'NOT_FOUND',
  /** Serving an HTTP request failed inside the server (a bug): the request got a 500, the server runs on. */
  MCP_SERVE_REQUEST_FAILED: 'INTERNAL',
} as const;

/** Envelope builders for the codes above. */
export const mcpServerErrors = codedErrors('@nodwyn/plugin-mcp', McpServerCodes, { operation: 'mcp.serve' });
