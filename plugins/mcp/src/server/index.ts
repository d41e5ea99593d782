export { callToolResult, envelopeText, JsonRpcError } from './call-result.js';
export { McpServerCodes, mcpServerErrors } from './codes.js';
export { CONFIRM_FIELD, confirmationMessage, elicitationConfirmer, type Elicit } from './elicitation-confirmer.js';
export { MCP_PATH, startMcpHttp, type HttpServeOptions, type McpHttpServer } from './http-serve.js';
export { createMcpServer, type McpServerInfo, type McpServerOptions } from './mcp-server.js';
export { PROGRESS_INTERVAL_MS, progressTicker, type SendProgress } from './progress.js';
export { serveMcpStdio, type StdioServeOptions } from './stdio-serve.js';
export { listingKey, mcpTool, toolTitle } from './tool-listing.js';
export type { McpClientInfo, McpToolCall, McpToolHost, McpToolSession } from './tool-host.js';
