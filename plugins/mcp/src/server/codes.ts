/** Codes of the envelopes `nodwyn mcp serve` builds itself (the guard's own are the kernel's). */
export const McpServerCodes = {
  /** An HTTP request without the bearer token, or with another one. */
  MCP_SERVE_UNAUTHORIZED: 'MCP_SERVE_UNAUTHORIZED',
  /** An HTTP request from a web page's origin, or for another host name than the loopback one served. */
  MCP_SERVE_FORBIDDEN: 'MCP_SERVE_FORBIDDEN',
  /** An HTTP request for another path than `/mcp`. */
  MCP_SERVE_NOT_FOUND: 'MCP_SERVE_NOT_FOUND',
  /** An HTTP request body over the size the server reads. */
  MCP_SERVE_BODY_TOO_LARGE: 'MCP_SERVE_BODY_TOO_LARGE',
  /** A request naming an MCP session this server does not have (ended, or never made). */
  MCP_SERVE_SESSION_UNKNOWN: 'MCP_SERVE_SESSION_UNKNOWN',
  /** Serving an HTTP request failed inside the server (a bug): the request got a 500, the server runs on. */
  MCP_SERVE_REQUEST_FAILED: 'MCP_SERVE_REQUEST_FAILED',
} as const;
